import type { FastifyInstance } from 'fastify';
import { registerPeriodicJob } from '../../lib/periodic-job.ts';
import { configuredOrigin } from '../auth/public-origin.ts';
import { renewDueSubscriptions } from './billing.service.ts';
import { remindTrialsEnding } from './trial-reminder.ts';

/** How often each instance looks for subscriptions whose period is over. */
export const BILLING_SWEEP_MS = 60_000;

/**
 * Renews or ends due subscriptions, and announces free trials about to end, every `intervalMs` (0: never; tests drive it themselves), so
 * a cancellation or a renewal takes effect when its period ends, whether or not anyone opens
 * Billing. One sweep runs at a time; a sweep that fails is logged and the next one tries again.
 */
export function registerBillingSweep(app: FastifyInstance, intervalMs: number): void {
  const onError = (userId: string, error: unknown) => app.log.error({ err: error, userId }, 'could not renew or end a subscription');
  registerPeriodicJob(app, {
    what: 'the billing sweep',
    intervalMs,
    // Every due account once per sweep (a server that was down for a while catches up); one that
    // keeps failing stays due for the next sweep without holding back the others.
    run: async () => {
      const { database, clock, mailer, env } = app.context;
      await renewDueSubscriptions(database.db, clock.now(), { onError });
      // Then the trials ending within a few days are announced, once each.
      await remindTrialsEnding(database.db, mailer, clock.now(), configuredOrigin(env));
    },
  });
}
