import type { FastifyInstance } from 'fastify';
import { RENEWAL_BATCH, renewDueSubscriptions } from './billing.service.ts';

/** How often each instance looks for subscriptions whose period is over. */
export const BILLING_SWEEP_MS = 60_000;
const MAX_BATCHES = 10;

/**
 * Renews or ends due subscriptions every `intervalMs` (0: never; tests drive it themselves), so
 * a cancellation or a renewal takes effect when its period ends, whether or not anyone opens
 * Billing. One sweep runs at a time; a sweep that fails is logged and the next one tries again.
 */
export function registerBillingSweep(app: FastifyInstance, intervalMs: number): void {
  if (intervalMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= (async () => {
      try {
        // Batches until nothing is due (a server that was down for a while catches up), within a
        // bound: accounts that keep failing stay due and must not keep one sweep going.
        for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
          if ((await renewDueSubscriptions(app.context.database.db, app.context.clock.now(), { onError })) < RENEWAL_BATCH) break;
        }
      } catch (error) {
        app.log.error({ err: error }, 'the billing sweep failed; it runs again shortly');
      } finally {
        running = undefined;
      }
    })();
  };
  const onError = (userId: string, error: unknown) => app.log.error({ err: error, userId }, 'could not renew or end a subscription');
  app.addHook('onReady', async () => {
    timer = setInterval(sweep, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
