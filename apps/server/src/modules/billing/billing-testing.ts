import { eq } from 'drizzle-orm';
import { afterEach, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import type { BuildAppOptions } from '../../app.ts';
import { invoices, users } from '../../db/schema/index.ts';
import { portalClient, settableClock } from '../portal/portal-testing.ts';
import { renewDueSubscriptions } from './billing.service.ts';

/**
 * Test support for the billing suites: a new app for every test at a settable clock (back at
 * `startIso` each time), signed-in calls, the account's plan and invoices as stored, and the
 * renewal sweep run by hand (its errors collected in `failures`).
 */
export function billingSuite(startIso: string) {
  const clock = settableClock(startIso);
  let harness: TestApp;
  beforeEach(async () => {
    clock.set(startIso);
    harness = await createTestApp({}, { clock });
  });
  afterEach(async () => harness.close());

  const app = () => harness.app;
  const db = () => harness.app.context.database.db;
  const failures: unknown[] = [];
  return {
    clock,
    app,
    db,
    failures,
    ...portalClient(app, clock),
    /** Starts the test's app again with other options (its own billing sweep, say), at the same clock. */
    restart: async (options: Omit<BuildAppOptions, 'env' | 'clock'>) => {
      await harness.close();
      harness = await createTestApp({}, { clock, ...options });
    },
    planOf: async (userId: string) => (await db().select({ plan: users.plan }).from(users).where(eq(users.id, userId)))[0]?.plan,
    invoicesOf: (userId: string) => db().select().from(invoices).where(eq(invoices.userId, userId)).orderBy(invoices.createdAt),
    sweep: () => renewDueSubscriptions(db(), clock.now(), { onError: (_userId, error) => failures.push(error) }),
  };
}
