import type { FastifyInstance } from 'fastify';

/** How often each instance sends again the e-mail whose delivery failed and is due. */
export const OUTBOX_RELAY_MS = 30_000;

/**
 * With SMTP: every `intervalMs` (0: never; tests drive `mailer.redeliver` themselves), and once at
 * start-up for mail left undelivered when the server last stopped, the mailer sends again what is
 * due. One run at a time; closing the app stops the timer and waits for a run under way (the
 * mailer's drain covers it).
 */
export function registerOutboxRelay(app: FastifyInstance, intervalMs: number): void {
  if (intervalMs <= 0 || !app.context.env.SMTP_URL) return;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  const relay = () => {
    if (busy) return;
    busy = true;
    void app.context.mailer
      .redeliver()
      .then(
        (report) => {
          if (report.sent + report.failed + report.abandoned > 0) app.log.info({ mail: report }, 'outbox relay ran');
        },
        (error: unknown) => app.log.error({ err: error }, 'the outbox relay failed; it runs again shortly'),
      )
      .finally(() => {
        busy = false;
      });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(relay, intervalMs);
    timer.unref();
    relay();
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
  });
}
