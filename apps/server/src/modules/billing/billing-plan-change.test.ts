import { describe, expect, it } from 'vitest';
import { createUserWithSession } from '../../../test/helpers.ts';
import { spendTrial, usageEvent } from '../portal/portal-testing.ts';
import { recordUsageEvents } from '../usage/usage.writer.ts';
import { coversQuote } from './billing.service.ts';
import { billingSuite } from './billing-testing.ts';

const lineOf = ({ description, amountCents }: { description: string; amountCents: number }) => ({ description, amountCents });

/** Plan changes of accounts with live traffic, a pending cancellation, or a period that began after a trial. */
describe('billing: plan changes', () => {
  const { clock, app, db, get, post, sessionFor, planOf, invoicesOf, sweep } = billingSuite('2026-03-16T00:00:00.000Z');

  /** An account on Pro, its trial behind it, billed for the rest of March at once. */
  const onPro = async () => {
    const created = await createUserWithSession(app());
    await spendTrial(db(), created.user.id, clock.now());
    expect((await post('/api/v1/billing/change-plan', created.cookie, { plan: 'pro' })).statusCode).toBe(200);
    return created;
  };

  it('an account over quota with live traffic can change plan: the overage is billed as metered at the confirmation', async () => {
    const { cookie, user } = await onPro();
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-15T10:00:00Z', { promptTokens: 1_000_000, completionTokens: 100_000 })]);
    const preview = (await post('/api/v1/billing/preview', cookie, { plan: 'enterprise' })).json();
    expect(preview).toMatchObject({ overageCents: 500 });
    expect(preview.totalCents).toBe(preview.chargeCents - preview.creditCents + 500);

    // Traffic goes on between Review and Confirm: 300 tokens more over quota.
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-16T00:00:00Z', { promptTokens: 200, completionTokens: 100 })]);
    const shown = { plan: 'enterprise', expectedTotalCents: preview.totalCents, expectedOverageCents: preview.overageCents };
    // Without the overage shown, only the exact total would do.
    expect(
      (await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise', expectedTotalCents: preview.totalCents })).statusCode,
    ).toBe(409);
    const change = await post('/api/v1/billing/change-plan', cookie, shown);
    expect(change.statusCode, change.body).toBe(200);
    // The proration shown, and the overage as metered now: 100,300 tokens, 501.5 cents rounded up.
    expect(change.json().invoice.amountCents).toBe(preview.totalCents + 2);
    expect(change.json().invoice.lines).toContainEqual({
      description: 'Overage: 100,300 tokens over quota in March 2026',
      amountCents: 502,
    });
    expect(await planOf(user.id)).toBe('enterprise');
  });

  it('still refuses (409) an amount that is not the proration shown plus overage owed, or a plan changed since the preview', async () => {
    const { cookie, user } = await onPro();
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-15T10:00:00Z', { promptTokens: 1_100_000, completionTokens: 0 })]);
    const preview = (await post('/api/v1/billing/preview', cookie, { plan: 'enterprise' })).json();
    expect(preview.overageCents).toBe(500);
    const proration = preview.totalCents - preview.overageCents;
    for (const [expectedTotalCents, expectedOverageCents] of [
      [proration - 1, undefined],
      [preview.totalCents + 1, undefined],
      [preview.totalCents + 1, 500],
      [preview.totalCents - 1, 500],
      [preview.totalCents + 1, 501],
    ]) {
      const refused = await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise', expectedTotalCents, expectedOverageCents });
      expect(refused.statusCode, `${expectedTotalCents} ${expectedOverageCents}`).toBe(409);
      expect(refused.json().error.code).toBe('quote_expired');
    }
    // Another tab moves to Pro yearly (billing the overage so far): the Enterprise quote shown is stale.
    expect((await post('/api/v1/billing/change-plan', cookie, { plan: 'pro', period: 'yearly' })).statusCode).toBe(200);
    const stale = await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise', expectedTotalCents: preview.totalCents });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toMatch(/^This change now comes to a \$[\d,]+\.\d\d credit, not the amount shown\./);
    expect((await get('/api/v1/billing', cookie)).json()).toMatchObject({ plan: 'pro', period: 'yearly' });
  });

  it('covers the shown amount: the proration exactly, and an overage that has only grown since', () => {
    const now = (prorationCents: number, overageCents: number) => ({ prorationCents, overageCents });
    expect(coversQuote({ totalCents: 1000, overageCents: 0 }, now(1000, 0))).toBe(true);
    expect(coversQuote({ totalCents: 1001, overageCents: 0 }, now(1000, 0))).toBe(false);
    expect(coversQuote({ totalCents: 999, overageCents: 0 }, now(1000, 0))).toBe(false);
    expect(coversQuote({ totalCents: 1500, overageCents: 500 }, now(1000, 502))).toBe(true);
    expect(coversQuote({ totalCents: 1503, overageCents: 503 }, now(1000, 502))).toBe(false);
    expect(coversQuote({ totalCents: -400, overageCents: 500 }, now(-900, 502))).toBe(true);
    // A proration that moved by up to the overage shown is still a moved proration.
    expect(coversQuote({ totalCents: -997, overageCents: 500 }, now(-977, 500))).toBe(false);
    expect(coversQuote({ totalCents: 1500 }, now(1000, 500))).toBe(true);
    expect(coversQuote({ totalCents: 1500 }, now(1000, 502))).toBe(false);
  });

  it('refuses a confirmation after the proration moved, even by less than the overage shown', async () => {
    const { cookie, user } = await onPro();
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-15T10:00:00Z', { promptTokens: 1_100_000, completionTokens: 0 })]);
    const preview = (await post('/api/v1/billing/preview', cookie, { plan: 'free' })).json();
    expect(preview.overageCents).toBe(500);
    clock.set('2026-03-16T05:00:00.000Z');
    const later = await sessionFor(user.id);
    const refused = await post('/api/v1/billing/change-plan', later, {
      plan: 'free',
      expectedTotalCents: preview.totalCents,
      expectedOverageCents: preview.overageCents,
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await planOf(user.id)).toBe('pro');
  });

  it('a pending cancellation outlives a change between paid plans, and ends the new plan with its period', async () => {
    const { cookie, user } = await onPro();
    expect((await post('/api/v1/billing/cancel', cookie)).statusCode).toBe(200);
    const change = await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' });
    expect(change.statusCode).toBe(200);
    expect(change.json().billing).toMatchObject({ plan: 'enterprise', cancelAtPeriodEnd: true, estimatedBillCents: 0 });

    clock.set('2026-04-01T00:00:30.000Z');
    expect(await sweep()).toBe(1);
    expect(await planOf(user.id)).toBe('free');
    // The upgrade's invoice only: no renewal.
    expect(await invoicesOf(user.id)).toHaveLength(2);
  });

  it('a move to Free clears a pending cancellation, as before', async () => {
    const { cookie } = await onPro();
    await post('/api/v1/billing/cancel', cookie);
    const change = await post('/api/v1/billing/change-plan', cookie, { plan: 'free' });
    expect(change.json().billing).toMatchObject({ plan: 'free', cancelAtPeriodEnd: false });
  });

  it('a trial cancelled and then moved to another paid plan stays cancelled: nothing is billed for the plan at its end', async () => {
    const { cookie, user } = await createUserWithSession(app());
    expect((await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' })).json().invoice).toBeNull();
    await post('/api/v1/billing/cancel', cookie);
    clock.set('2026-03-20T00:00:00.000Z');
    const later = await sessionFor(user.id);
    const change = (await post('/api/v1/billing/change-plan', later, { plan: 'enterprise', expectedTotalCents: 0 })).json();
    expect(change.billing).toMatchObject({ plan: 'enterprise', cancelAtPeriodEnd: true, trialEndsAt: '2026-03-30T00:00:00.000Z' });
    clock.set('2026-03-30T00:00:30.000Z');
    expect(await sweep()).toBe(1);
    expect(await planOf(user.id)).toBe('free');
    expect(await invoicesOf(user.id)).toEqual([]);
  });

  it('after a trial that ends mid-month, Billing shows the period billed; a later change credits the unused part of the month', async () => {
    clock.set('2026-03-30T00:00:00.000Z');
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    clock.set('2026-04-13T00:00:30.000Z');
    expect(await sweep()).toBe(1);
    const [first] = await invoicesOf(user.id);
    expect(first).toMatchObject({
      periodStart: new Date('2026-04-13T00:00:00.000Z'),
      periodEnd: new Date('2026-05-01T00:00:00.000Z'),
      // April 13 to May 1: 18 of April's 30 days.
      amountCents: 1740,
    });
    const later = await sessionFor(user.id);
    expect((await get('/api/v1/billing', later)).json()).toMatchObject({
      plan: 'pro',
      trialEndsAt: null,
      currentPeriodStart: '2026-04-13T00:00:00.000Z',
      currentPeriodEnd: '2026-05-01T00:00:00.000Z',
      nextBillingDate: '2026-05-01T00:00:00.000Z',
    });

    // On April 20, 11 of April's 30 days are unused: 1063 of Pro's 2900 (not 11 of the 18 days billed).
    clock.set('2026-04-20T00:00:00.000Z');
    const last = await sessionFor(user.id);
    const preview = (await post('/api/v1/billing/preview', last, { plan: 'enterprise' })).json();
    expect(preview).toMatchObject({ creditCents: 1063, chargeCents: 7297, totalCents: 6234 });
    expect(preview.lines.map(lineOf)).toEqual([
      { description: 'Enterprise plan (monthly), Apr 20, 2026 to Apr 30, 2026, prorated', amountCents: 7297 },
      { description: 'Unused time on Pro plan (monthly)', amountCents: -1063 },
    ]);
    const change = await post('/api/v1/billing/change-plan', last, { plan: 'enterprise', expectedTotalCents: 6234 });
    expect(change.statusCode).toBe(200);

    // The renewal on May 1 is the whole month, as usual.
    clock.set('2026-05-01T00:00:30.000Z');
    expect(await sweep()).toBe(1);
    const renewal = (await invoicesOf(user.id)).at(-1);
    expect(renewal).toMatchObject({ amountCents: 19_900, periodStart: new Date('2026-05-01T00:00:00.000Z') });
  });
});
