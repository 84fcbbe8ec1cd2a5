import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import { insertInvoice, saveSubscription } from './billing.repository.ts';

/** Migration 0009 marks the trial used for accounts already billed for a paid plan: they get none now. */
describe('migration 0009: trials for existing accounts', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  it('marks paid subscriptions and accounts with invoices, and leaves the rest with their trial', async () => {
    const db = harness.app.context.database.db;
    const created = new Date('2026-01-10T00:00:00.000Z');
    const subscription = async (plan: 'free' | 'pro' | 'enterprise') => {
      const { user } = await createUserWithSession(harness.app);
      await db.update(users).set({ plan }).where(eq(users.id, user.id));
      await saveSubscription(db, {
        userId: user.id,
        plan,
        period: 'monthly',
        currentPeriodStart: new Date('2026-03-01T00:00:00.000Z'),
        currentPeriodEnd: new Date('2026-04-01T00:00:00.000Z'),
        createdAt: created,
      });
      return user.id;
    };
    const pro = await subscription('pro');
    const enterprise = await subscription('enterprise');
    const freeAfterPaying = await subscription('free');
    await insertInvoice(db, {
      id: `inv_migration_${freeAfterPaying.slice(0, 8)}`,
      userId: freeAfterPaying,
      number: 'INV-202602-MIGRATE1',
      periodStart: new Date('2026-02-01T00:00:00.000Z'),
      periodEnd: new Date('2026-03-01T00:00:00.000Z'),
      amountCents: 2900,
      lines: [{ description: 'Pro plan (monthly)', amountCents: 2900 }],
      status: 'open',
    });
    const neverPaid = await subscription('free');
    // Billing follows the account's plan: one moved to Pro outside Billing, its subscription not yet caught up.
    const proElsewhere = await subscription('free');
    await db.update(users).set({ plan: 'pro' }).where(eq(users.id, proElsewhere));

    const migration = readFileSync(new URL('../../db/migrations/0009_subscription_trial.sql', import.meta.url), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').at(-1);
    expect(backfill).toMatch(/^\s*-- Accounts that were already on a paid plan/);
    await db.execute(sql.raw(backfill ?? ''));

    const marks = new Map(
      (await db.select({ userId: subscriptions.userId, mark: subscriptions.trialEndsAt }).from(subscriptions)).map((row) => [
        row.userId,
        row.mark,
      ]),
    );
    expect(marks.get(pro)).toEqual(created);
    expect(marks.get(enterprise)).toEqual(created);
    expect(marks.get(freeAfterPaying)).toEqual(created);
    expect(marks.get(proElsewhere)).toEqual(created);
    expect(marks.get(neverPaid)).toBeNull();
  });
});
