import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserWithSession } from '../../../test/helpers.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { spendTrial, usageEvent } from '../portal/portal-testing.ts';
import { recordUsageEvents } from '../usage/usage.writer.ts';
import { renewDueSubscriptions } from './billing.service.ts';
import { billingSuite } from './billing-testing.ts';

/** Renewals, cancellations and overage that take effect without anyone opening Billing, and plan changes sent at once. */
describe('billing: periods that end on their own, and overage that is always billed once', () => {
  const { clock, app, db, failures, get, post, sessionFor, restart, planOf, invoicesOf, sweep } = billingSuite('2026-03-16T00:00:00.000Z');
  /** An account whose free trial is behind it (billing-trial.test.ts covers the trial): its changes are billed at once. */
  const billedUser = async () => {
    const created = await createUserWithSession(app());
    await spendTrial(db(), created.user.id, clock.now());
    return created;
  };

  it('a cancellation takes effect when the period ends, with a final invoice for that month’s overage, without a visit to Billing', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    await post('/api/v1/billing/cancel', cookie);
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-20T10:00:00Z', { promptTokens: 900_000, completionTokens: 400_000 })]);
    const before = (await invoicesOf(user.id)).length;

    clock.set('2026-03-31T23:59:00.000Z');
    expect(await sweep()).toBe(0);
    expect(await planOf(user.id)).toBe('pro');

    clock.set('2026-04-01T00:01:00.000Z');
    expect(await sweep()).toBe(1);
    expect(failures).toEqual([]);
    expect(await planOf(user.id)).toBe('free');
    const added = (await invoicesOf(user.id)).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      amountCents: 1500,
      status: 'open',
      periodStart: new Date('2026-03-01T00:00:00.000Z'),
      periodEnd: new Date('2026-04-01T00:00:00.000Z'),
      createdAt: new Date('2026-04-01T00:00:00.000Z'),
    });
    expect(added[0]?.number).toMatch(/^INV-202604-/);
    // What the account sees: the Free plan, and the final invoice's line.
    const later = await sessionFor(user.id);
    expect((await get('/api/v1/billing', later)).json()).toMatchObject({ plan: 'free', cancelAtPeriodEnd: false });
    const listed = (await get('/api/v1/billing/invoices', later)).json().invoices;
    expect(listed[0].lines).toEqual([{ description: 'Overage: 300,000 tokens over quota in March 2026', amountCents: 1500 }]);
    // Nothing more is due; a second sweep (another instance) changes nothing.
    expect(await sweep()).toBe(0);
    expect(await invoicesOf(user.id)).toHaveLength(before + 1);
  });

  it('a renewal is invoiced when its period ends, dated at the renewal, once', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    const before = (await invoicesOf(user.id)).length;
    clock.set('2026-05-02T08:00:00.000Z');
    expect(await sweep()).toBe(1);
    const added = (await invoicesOf(user.id)).slice(before);
    expect(added.map((row) => [row.createdAt.toISOString(), row.number.slice(0, 10), row.amountCents])).toEqual([
      ['2026-04-01T00:00:00.000Z', 'INV-202604', 2900],
      ['2026-05-01T00:00:00.000Z', 'INV-202605', 2900],
    ]);
    expect(await sweep()).toBe(0);
    expect(await planOf(user.id)).toBe('pro');
  });

  it('the server sweeps on its own: the plan ends without any request', async () => {
    await restart({ billingSweepMs: 20 });
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    await post('/api/v1/billing/cancel', cookie);
    clock.set('2026-04-01T00:00:01.000Z');
    await expect.poll(() => planOf(user.id), { timeout: 5_000 }).toBe('free');
  });

  it('leaving Pro bills the overage so far, the preview says so, and a return to Pro in the same month bills only the rest', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-16T10:00:00Z', { promptTokens: 1_000_000, completionTokens: 200_000 })]);

    const preview = (await post('/api/v1/billing/preview', cookie, { plan: 'enterprise' })).json();
    expect(preview).toMatchObject({ chargeCents: 10271, creditCents: 1497, overageCents: 1000, totalCents: 9774 });
    expect(preview.lines).toContainEqual({ description: 'Overage: 200,000 tokens over quota in March 2026', amountCents: 1000 });
    const up = (await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' })).json();
    expect(up.invoice).toMatchObject({ amountCents: 9774, lines: preview.lines });

    // Back to Pro; more tokens; at renewal only the tokens not yet billed are.
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    expect((await get('/api/v1/billing', cookie)).json().overage).toEqual({ tokens: 0, costCents: 0, applies: true });
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-17T10:00:00Z', { promptTokens: 100_000, completionTokens: 0 })]);
    expect((await get('/api/v1/billing', cookie)).json().overage).toEqual({ tokens: 100_000, costCents: 500, applies: true });
    clock.set('2026-04-01T00:00:00.000Z');
    await sweep();
    const renewal = (await invoicesOf(user.id)).at(-1);
    expect(renewal?.lines.map(({ description, amountCents }) => ({ description, amountCents }))).toEqual([
      { description: 'Pro plan (monthly), Apr 1, 2026 to Apr 30, 2026', amountCents: 2900 },
      { description: 'Overage: 100,000 tokens over quota in March 2026', amountCents: 500 },
    ]);
  });

  it('a yearly plan’s overage is estimated and billed month by month of its year, at the change that ends it', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro', period: 'yearly' });
    await recordUsageEvents(db(), [
      usageEvent(user.id, '2026-03-20T10:00:00Z', { promptTokens: 1_100_000, completionTokens: 0 }),
      usageEvent(user.id, '2026-04-20T10:00:00Z', { promptTokens: 1_000_000, completionTokens: 20_000 }),
    ]);
    clock.set('2026-05-10T00:00:00.000Z');
    const later = await sessionFor(user.id);
    // The estimated bill counts every month's overage still to bill, not only this month's (none in May).
    const overview = (await get('/api/v1/billing', later)).json();
    expect(overview.overage).toEqual({ tokens: 120_000, costCents: 600, applies: true });
    expect(overview.estimatedBillCents).toBe(overview.priceCents + 600);
    const { invoice } = (await post('/api/v1/billing/change-plan', later, { plan: 'free' })).json();
    expect(invoice.lines.filter((line: { description: string }) => line.description.startsWith('Overage'))).toEqual([
      { description: 'Overage: 100,000 tokens over quota in March 2026', amountCents: 500 },
      { description: 'Overage: 20,000 tokens over quota in April 2026', amountCents: 100 },
    ]);
  });

  it('two plan changes sent at once bill once: the second finds the plan already changed', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    const before = (await invoicesOf(user.id)).length;
    const responses = await Promise.all([1, 2, 3].map(() => post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' })));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await invoicesOf(user.id)).toHaveLength(before + 1);
    expect(await planOf(user.id)).toBe('enterprise');
  });

  it('accounts that keep failing are passed over: the walk reaches the due accounts behind them', async () => {
    const accounts = await Promise.all([0, 1, 2].map(() => billedUser()));
    for (const { cookie } of accounts) await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    // The same period end for all three: the due order is then by account id, and the first two fail on every renewal.
    const [first, second, third] = accounts.map(({ user }) => user.id).sort();
    await db().execute(
      sql.raw(`create function refuse_invoice() returns trigger language plpgsql as $$
        begin
          if new.user_id in ('${first}', '${second}') then raise exception 'the invoice store refuses this account'; end if;
          return new;
        end $$`),
    );
    await db().execute(sql.raw('create trigger refuse_invoice before insert on invoices for each row execute function refuse_invoice()'));
    try {
      clock.set('2026-04-01T00:01:00.000Z');
      const failed: string[] = [];
      // Two at a time: the failing pair fills the first read; the third account is in the second.
      expect(await renewDueSubscriptions(db(), clock.now(), { onError: (userId) => failed.push(userId), batch: 2 })).toBe(3);
      expect(failed).toEqual([first, second]);
      const periodEnd = async (userId: string | undefined) =>
        (
          await db()
            .select()
            .from(subscriptions)
            .where(eq(subscriptions.userId, userId as string))
        )[0]?.currentPeriodEnd.toISOString();
      expect(await periodEnd(third)).toBe('2026-05-01T00:00:00.000Z');
      expect(await periodEnd(first)).toBe('2026-04-01T00:00:00.000Z');
      // The two still fail, and are still due, on the next walk: only they are read.
      failed.length = 0;
      expect(await renewDueSubscriptions(db(), clock.now(), { onError: (userId) => failed.push(userId), batch: 2 })).toBe(2);
      expect(failed).toEqual([first, second]);
    } finally {
      await db().execute(sql.raw('drop trigger refuse_invoice on invoices'));
      await db().execute(sql.raw('drop function refuse_invoice()'));
    }
  });
});
