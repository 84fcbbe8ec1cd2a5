import type { FastifyInstance } from 'fastify';
import { registerPeriodicJob } from './periodic-job.ts';

/** How often each instance sends again the e-mail whose delivery failed and is due. */
export const OUTBOX_RELAY_MS = 30_000;

/**
 * With SMTP: every `intervalMs` (0: never; tests drive `mailer.redeliver` themselves), and once at
 * start-up for mail left undelivered when the server last stopped, the mailer sends again what is
 * due. Closing the app stops a run under way before its next mail (`mailer.stop` gives back the
 * mail it claimed and had not tried) and waits for the mail being sent.
 */
export function registerOutboxRelay(app: FastifyInstance, intervalMs: number): void {
  if (!app.context.env.SMTP_URL) return;
  registerPeriodicJob(app, {
    what: 'the outbox relay',
    intervalMs,
    atStart: true,
    run: async () => {
      const report = await app.context.mailer.redeliver();
      if (report.sent + report.failed + report.abandoned > 0) app.log.info({ mail: report }, 'outbox relay ran');
    },
    stop: () => app.context.mailer.stop(),
  });
}
