import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { users } from '../../db/schema/index.ts';
import { portalClient, settableClock, spendTrial, usageEvent } from '../portal/portal-testing.ts';
import { recordUsageEvents } from '../usage/usage.writer.ts';

const clock = settableClock('2026-03-16T00:00:00.000Z');

describe('billing', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp({}, { clock });
  });
  afterAll(async () => harness.close());

  const db = () => harness.app.context.database.db;
  const { get, post, sessionFor } = portalClient(() => harness.app, clock);
  /** An account whose free trial is behind it (billing-trial.test.ts covers the trial): its changes are billed at once. */
  const billedUser = async () => {
    const created = await createUserWithSession(harness.app);
    await spendTrial(db(), created.user.id, clock.now());
    return created;
  };

  it('shows a free user’s plan, period, usage and an honest payment method', async () => {
    const { cookie } = await createUserWithSession(harness.app);
    const response = await get('/api/v1/billing', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      plan: 'free',
      planName: 'Free',
      period: 'monthly',
      priceCents: 0,
      currentPeriodStart: '2026-03-01T00:00:00.000Z',
      currentPeriodEnd: '2026-04-01T00:00:00.000Z',
      nextBillingDate: '2026-04-01T00:00:00.000Z',
      cancelAtPeriodEnd: false,
      trialEndsAt: null,
      trialAvailable: true,
      usage: { tokensUsed: 0, ownKeyTokens: 0, tokensLimit: 10_000, monthStart: '2026-03-01' },
      overage: { tokens: 0, costCents: 0, applies: false },
      estimatedBillCents: 0,
      paymentMethod: null,
    });
    expect((await get('/api/v1/billing/invoices', cookie)).json()).toEqual({ invoices: [] });
  });

  it('previews and applies an upgrade with proration, issuing a real invoice', async () => {
    const { cookie, user } = await billedUser();
    const preview = await post('/api/v1/billing/preview', cookie, { plan: 'pro' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      fromPlan: 'free',
      toPlan: 'pro',
      toPeriod: 'monthly',
      creditCents: 0,
      chargeCents: 1497,
      totalCents: 1497,
      prorated: true,
    });
    // A whole year from Free is its whole price: nothing about it is prorated.
    const yearly = await post('/api/v1/billing/preview', cookie, { plan: 'pro', period: 'yearly' });
    expect(yearly.json()).toMatchObject({ creditCents: 0, chargeCents: 29900, totalCents: 29900, prorated: false });

    const change = await post('/api/v1/billing/change-plan', cookie, { plan: 'pro', period: 'monthly' });
    expect(change.statusCode).toBe(200);
    const { billing, invoice } = change.json();
    expect(billing).toMatchObject({ plan: 'pro', priceCents: 2900, estimatedBillCents: 2900, usage: { tokensLimit: 1_000_000 } });
    expect(invoice).toMatchObject({ amountCents: 1497, status: 'open' });
    const [row] = await db().select({ plan: users.plan }).from(users).where(eq(users.id, user.id));
    expect(row?.plan).toBe('pro');

    const upgrade = await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' });
    expect(upgrade.json().invoice).toMatchObject({ amountCents: 8774, status: 'open' });
    const downgrade = await post('/api/v1/billing/change-plan', cookie, { plan: 'free' });
    expect(downgrade.json().invoice).toMatchObject({ amountCents: -10271, status: 'paid' });
    expect(downgrade.json().billing.plan).toBe('free');

    const { invoices } = (await get('/api/v1/billing/invoices', cookie)).json();
    expect(invoices.map((item: { amountCents: number }) => item.amountCents).sort()).toEqual([-10271, 1497, 8774].sort());

    const download = await get(`/api/v1/billing/invoices/${invoice.id}/download`, cookie);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('text/html');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="conductor-${invoice.number}.html"`);
    expect(download.body).toContain(invoice.number);
    expect(download.body).toContain('$14.97');
    expect(download.body).not.toContain('<script');
  });

  it('refuses a change to the current plan', async () => {
    const { cookie } = await createUserWithSession(harness.app);
    const response = await post('/api/v1/billing/change-plan', cookie, { plan: 'free' });
    expect(response.statusCode).toBe(409);
  });

  it('cancels at period end, can resume, and ends the plan when the period closes', async () => {
    const { cookie, user } = await billedUser();
    expect((await post('/api/v1/billing/cancel', cookie)).statusCode).toBe(409);
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    const cancelled = await post('/api/v1/billing/cancel', cookie);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ plan: 'pro', cancelAtPeriodEnd: true, estimatedBillCents: 0 });
    expect((await post('/api/v1/billing/cancel', cookie)).statusCode).toBe(409);
    const resumed = await post('/api/v1/billing/resume', cookie);
    expect(resumed.json()).toMatchObject({ cancelAtPeriodEnd: false, estimatedBillCents: 2900 });
    expect((await post('/api/v1/billing/resume', cookie)).statusCode).toBe(409);
    await post('/api/v1/billing/cancel', cookie);

    clock.set('2026-04-02T00:00:00.000Z');
    try {
      const later = await sessionFor(user.id);
      const overview = (await get('/api/v1/billing', later)).json();
      expect(overview).toMatchObject({ plan: 'free', cancelAtPeriodEnd: false, currentPeriodStart: '2026-04-01T00:00:00.000Z' });
      const { invoices } = (await get('/api/v1/billing/invoices', later)).json();
      expect(invoices).toHaveLength(1);
    } finally {
      clock.set('2026-03-16T00:00:00.000Z');
    }
  });

  it('renews a paid plan with an invoice that includes the closed month’s overage', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-20T10:00:00Z', { promptTokens: 700_000, completionTokens: 500_000 })]);
    clock.set('2026-03-25T00:00:00.000Z');
    try {
      const overview = (await get('/api/v1/billing', await sessionFor(user.id))).json();
      expect(overview.overage).toEqual({ tokens: 200_000, costCents: 1000, applies: true });
      expect(overview.estimatedBillCents).toBe(3900);
      clock.set('2026-04-03T00:00:00.000Z');
      const later = await sessionFor(user.id);
      const { invoices } = (await get('/api/v1/billing/invoices', later)).json();
      const renewal = invoices.find((item: { periodStart: string }) => item.periodStart === '2026-04-01T00:00:00.000Z');
      expect(renewal).toMatchObject({ amountCents: 3900, status: 'open' });
      expect(renewal.lines).toEqual([
        { description: 'Pro plan (monthly), Apr 1, 2026 to Apr 30, 2026', amountCents: 2900 },
        { description: 'Overage: 200,000 tokens over quota in March 2026', amountCents: 1000 },
      ]);
      // Reading again does not invoice twice.
      expect((await get('/api/v1/billing/invoices', later)).json().invoices).toHaveLength(invoices.length);
    } finally {
      clock.set('2026-03-16T00:00:00.000Z');
    }
  });

  it('never bills the tokens used on Enterprise as Pro overage after a move down to Pro', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' });
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-17T10:00:00Z', { promptTokens: 3_000_000, completionTokens: 2_000_000 })]);
    clock.set('2026-03-20T00:00:00.000Z');
    try {
      const session = await sessionFor(user.id);
      const covered = {
        description: 'Enterprise plan usage: 4,000,000 tokens over the Pro quota in March 2026, covered (no charge)',
        amountCents: 0,
      };
      // The preview says so, and it costs nothing.
      const preview = (await post('/api/v1/billing/preview', session, { plan: 'pro' })).json();
      expect(preview.lines).toContainEqual(covered);
      expect(preview.overageCents).toBe(0);
      const changed = (await post('/api/v1/billing/change-plan', session, { plan: 'pro' })).json();
      expect(changed.invoice.lines).toContainEqual(covered);
      expect(changed.invoice.amountCents).toBe(preview.totalCents);
      // On Pro, the quota those tokens used up stays used: what comes after is overage, and only that.
      expect((await get('/api/v1/billing', session)).json().overage).toEqual({ tokens: 0, costCents: 0, applies: true });
      await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-22T10:00:00Z', { promptTokens: 200_000, completionTokens: 100_000 })]);
      clock.set('2026-03-25T00:00:00.000Z');
      const overview = (await get('/api/v1/billing', await sessionFor(user.id))).json();
      expect(overview.overage).toEqual({ tokens: 300_000, costCents: 1500, applies: true });
      clock.set('2026-04-03T00:00:00.000Z');
      const { invoices } = (await get('/api/v1/billing/invoices', await sessionFor(user.id))).json();
      const renewal = invoices.find((item: { periodStart: string }) => item.periodStart === '2026-04-01T00:00:00.000Z');
      expect(renewal.lines).toEqual([
        { description: 'Pro plan (monthly), Apr 1, 2026 to Apr 30, 2026', amountCents: 2900 },
        { description: 'Overage: 300,000 tokens over quota in March 2026', amountCents: 1500 },
      ]);
    } finally {
      clock.set('2026-03-16T00:00:00.000Z');
    }
  });

  it('bills no overage for tokens served on the account’s own provider keys: the provider bills those', async () => {
    const { cookie, user } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    await recordUsageEvents(db(), [
      usageEvent(user.id, '2026-03-20T10:00:00Z', { promptTokens: 600_000, completionTokens: 500_000, keySource: 'hosted' }),
      usageEvent(user.id, '2026-03-20T11:00:00Z', { promptTokens: 2_000_000, completionTokens: 1_000_000, keySource: 'byok' }),
    ]);
    clock.set('2026-03-25T00:00:00.000Z');
    try {
      const overview = (await get('/api/v1/billing', await sessionFor(user.id))).json();
      expect(overview.usage).toMatchObject({ tokensUsed: 1_100_000, ownKeyTokens: 3_000_000, tokensLimit: 1_000_000 });
      expect(overview.overage).toEqual({ tokens: 100_000, costCents: 500, applies: true });
      clock.set('2026-04-03T00:00:00.000Z');
      const { invoices } = (await get('/api/v1/billing/invoices', await sessionFor(user.id))).json();
      const renewal = invoices.find((item: { periodStart: string }) => item.periodStart === '2026-04-01T00:00:00.000Z');
      expect(renewal.lines).toContainEqual({ description: 'Overage: 100,000 tokens over quota in March 2026', amountCents: 500 });
      expect(renewal.amountCents).toBe(3400);
    } finally {
      clock.set('2026-03-16T00:00:00.000Z');
    }
  });

  it('never shows or changes another user’s billing', async () => {
    const alice = await billedUser();
    const bob = await createUserWithSession(harness.app);
    const { invoice } = (await post('/api/v1/billing/change-plan', alice.cookie, { plan: 'pro' })).json();
    expect((await get(`/api/v1/billing/invoices/${invoice.id}/download`, bob.cookie)).statusCode).toBe(404);
    expect((await get('/api/v1/billing/invoices', bob.cookie)).json()).toEqual({ invoices: [] });
    expect((await get('/api/v1/billing', bob.cookie)).json().plan).toBe('free');
    expect((await post('/api/v1/billing/cancel', bob.cookie)).statusCode).toBe(409);
    expect((await get('/api/v1/billing', alice.cookie)).json()).toMatchObject({ plan: 'pro', cancelAtPeriodEnd: false });
  });

  it('charges exactly the amount the preview showed, or changes nothing (409) when it no longer is that amount', async () => {
    clock.set('2026-03-16T00:00:00.000Z');
    const { cookie } = await billedUser();
    const preview = (await post('/api/v1/billing/preview', cookie, { plan: 'pro' })).json();
    expect(preview.totalCents).toBe(1497);
    // Confirmed 9 minutes later, by when the rest of the month costs a cent less: refused, plan unchanged.
    clock.advance(9 * 60_000);
    const stale = await post('/api/v1/billing/change-plan', cookie, { plan: 'pro', expectedTotalCents: preview.totalCents });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({
      code: 'quote_expired',
      message: 'This change now comes to $14.96 due, not the amount shown. Review it again to confirm.',
    });
    expect((await get('/api/v1/billing', cookie)).json().plan).toBe('free');
    expect((await get('/api/v1/billing/invoices', cookie)).json().invoices).toEqual([]);
    // Reviewed again and confirmed: charged what was shown.
    const again = (await post('/api/v1/billing/preview', cookie, { plan: 'pro' })).json();
    expect(again.totalCents).toBe(1496);
    const change = await post('/api/v1/billing/change-plan', cookie, { plan: 'pro', expectedTotalCents: again.totalCents });
    expect(change.statusCode).toBe(200);
    expect(change.json().invoice).toMatchObject({ amountCents: 1496 });

    // A plan changed elsewhere since the preview (another tab) makes it another amount too.
    const downgrade = (await post('/api/v1/billing/preview', cookie, { plan: 'enterprise' })).json();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'free' });
    const elsewhere = await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise', expectedTotalCents: downgrade.totalCents });
    expect(elsewhere.statusCode).toBe(409);
    expect((await get('/api/v1/billing', cookie)).json().plan).toBe('free');
    clock.set('2026-03-16T00:00:00.000Z');
  });

  it('a credit is refused the same way: the amount shown, not a larger one', async () => {
    clock.set('2026-03-10T00:00:00.000Z');
    const { cookie } = await billedUser();
    await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' });
    const preview = (await post('/api/v1/billing/preview', cookie, { plan: 'free' })).json();
    expect(preview.totalCents).toBeLessThan(0);
    clock.advance(30 * 60_000);
    const late = await post('/api/v1/billing/change-plan', cookie, { plan: 'free', expectedTotalCents: preview.totalCents });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toMatch(/^This change now comes to a \$\d+\.\d\d credit, not the amount shown\./);
    expect((await get('/api/v1/billing', cookie)).json().plan).toBe('enterprise');
    clock.set('2026-03-16T00:00:00.000Z');
  });

  it('refuses bad input with 400', async () => {
    const { cookie } = await createUserWithSession(harness.app);
    for (const payload of [
      {},
      { plan: 'gold' },
      { plan: 'pro', period: 'weekly' },
      { plan: 'pro', coupon: 'FREE' },
      { plan: 'byo-keys' },
      { plan: 'pro', expectedTotalCents: '14.97' },
      { plan: 'pro', expectedTotalCents: 14.97 },
    ]) {
      for (const url of ['/api/v1/billing/preview', '/api/v1/billing/change-plan']) {
        const response = await post(url, cookie, payload);
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      }
    }
    expect((await get(`/api/v1/billing/invoices/${'x'.repeat(65)}/download`, cookie)).statusCode).toBe(400);
    expect((await get('/api/v1/billing/invoices/%00/download', cookie)).statusCode).toBe(400);
    expect((await get('/api/v1/billing/invoices/inv_missing/download', cookie)).statusCode).toBe(404);
  });

  it('needs a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/billing'],
      ['POST', '/api/v1/billing/preview'],
      ['POST', '/api/v1/billing/change-plan'],
      ['POST', '/api/v1/billing/cancel'],
      ['POST', '/api/v1/billing/resume'],
      ['GET', '/api/v1/billing/invoices'],
      ['GET', '/api/v1/billing/invoices/x/download'],
    ] as const) {
      expect((await harness.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });
});
