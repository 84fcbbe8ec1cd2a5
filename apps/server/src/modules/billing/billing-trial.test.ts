import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUserWithSession } from '../../../test/helpers.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import { usageEvent } from '../portal/portal-testing.ts';
import { recordUsageEvents } from '../usage/usage.writer.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { stopRenewalOnReclaim, TRIAL_NEEDS_CONFIRMED_EMAIL } from './billing.service.ts';
import { billingSuite } from './billing-testing.ts';
import { remindTrialsEnding, TRIAL_ENDING_MAIL_KIND } from './trial-reminder.ts';

/** The one 14-day free trial every account has: started by the first move to a paid plan, billed from its end. */
describe('billing: the free trial', () => {
  const { clock, app, db, failures, get, post, sessionFor, restart, planOf, invoicesOf, sweep } = billingSuite('2026-03-16T00:00:00.000Z');
  const overviewAt = async (iso: string, userId: string) => {
    clock.set(iso);
    return (await get('/api/v1/billing', await sessionFor(userId))).json();
  };

  it('the first move to a paid plan starts a 14-day trial: nothing due now, the first invoice at its end', async () => {
    const { cookie, user } = await createUserWithSession(app());
    expect((await get('/api/v1/billing', cookie)).json()).toMatchObject({ plan: 'free', trialAvailable: true, trialEndsAt: null });

    const preview = await post('/api/v1/billing/preview', cookie, { plan: 'pro' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      fromPlan: 'free',
      fromPeriod: 'monthly',
      toPlan: 'pro',
      toPeriod: 'monthly',
      creditCents: 0,
      chargeCents: 0,
      overageCents: 0,
      totalCents: 0,
      prorated: false,
      periodStart: '2026-03-16T00:00:00.000Z',
      periodEnd: '2026-03-30T00:00:00.000Z',
      lines: [{ description: 'Pro plan (monthly), free trial, Mar 16, 2026 to Mar 29, 2026', amountCents: 0 }],
      // The first paid period runs from the trial's end to the end of March: 2 of its 31 days.
      trial: { endsAt: '2026-03-30T00:00:00.000Z', firstInvoiceCents: 187 },
    });

    const change = await post('/api/v1/billing/change-plan', cookie, { plan: 'pro', expectedTotalCents: 0 });
    expect(change.statusCode).toBe(200);
    expect(change.json().invoice).toBeNull();
    expect(change.json().billing).toMatchObject({
      plan: 'pro',
      priceCents: 2900,
      currentPeriodStart: '2026-03-16T00:00:00.000Z',
      currentPeriodEnd: '2026-03-30T00:00:00.000Z',
      nextBillingDate: '2026-03-30T00:00:00.000Z',
      trialEndsAt: '2026-03-30T00:00:00.000Z',
      trialAvailable: false,
      estimatedBillCents: 187,
      usage: { tokensLimit: 1_000_000 },
    });
    expect(await planOf(user.id)).toBe('pro');
    expect(await invoicesOf(user.id)).toEqual([]);

    // Over quota in the trial: the trial waives the plan's price, not the overage, which the first invoice bills.
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-20T10:00:00Z', { promptTokens: 900_000, completionTokens: 300_000 })]);
    expect(await overviewAt('2026-03-29T23:59:00.000Z', user.id)).toMatchObject({
      trialEndsAt: '2026-03-30T00:00:00.000Z',
      overage: { tokens: 200_000, costCents: 1000, applies: true },
      estimatedBillCents: 1187,
    });
    expect(await sweep()).toBe(0);

    clock.set('2026-03-30T00:00:30.000Z');
    expect(await sweep()).toBe(1);
    expect(failures).toEqual([]);
    const [first, ...rest] = await invoicesOf(user.id);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      amountCents: 1187,
      status: 'open',
      periodStart: new Date('2026-03-30T00:00:00.000Z'),
      periodEnd: new Date('2026-04-01T00:00:00.000Z'),
      createdAt: new Date('2026-03-30T00:00:00.000Z'),
    });
    expect(first?.lines.map(({ description, amountCents }) => ({ description, amountCents }))).toEqual([
      { description: 'Pro plan (monthly), Mar 30, 2026 to Mar 31, 2026, prorated', amountCents: 187 },
      { description: 'Overage: 200,000 tokens over quota in March 2026', amountCents: 1000 },
    ]);
    expect(await overviewAt('2026-03-30T00:01:00.000Z', user.id)).toMatchObject({
      plan: 'pro',
      trialEndsAt: null,
      trialAvailable: false,
      // The period billed: from the trial's end, not the 1st.
      currentPeriodStart: '2026-03-30T00:00:00.000Z',
      nextBillingDate: '2026-04-01T00:00:00.000Z',
      estimatedBillCents: 2900,
    });

    // After it, renewals are as usual: the 1st, the whole price, and only March's overage not yet billed.
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-31T10:00:00Z', { promptTokens: 100_000, completionTokens: 0 })]);
    clock.set('2026-04-01T00:00:30.000Z');
    expect(await sweep()).toBe(1);
    const renewal = (await invoicesOf(user.id))[1];
    expect(renewal?.lines.map(({ description, amountCents }) => ({ description, amountCents }))).toEqual([
      { description: 'Pro plan (monthly), Apr 1, 2026 to Apr 30, 2026', amountCents: 2900 },
      { description: 'Overage: 100,000 tokens over quota in March 2026', amountCents: 500 },
    ]);
    expect(await sweep()).toBe(0);
    expect(await invoicesOf(user.id)).toHaveLength(2);
  });

  it('only an account whose address is confirmed starts a trial; it is not spent by being refused', async () => {
    const { cookie, user } = await createUserWithSession(app(), { verified: false });
    for (const url of ['/api/v1/billing/preview', '/api/v1/billing/change-plan']) {
      const refused = await post(url, cookie, { plan: 'pro' });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error).toEqual({ code: 'forbidden', message: TRIAL_NEEDS_CONFIRMED_EMAIL });
    }
    expect(await planOf(user.id)).toBe('free');
    expect((await get('/api/v1/billing', cookie)).json()).toMatchObject({ plan: 'free', trialAvailable: true });
    await db().update(users).set({ verified: true }).where(eq(users.id, user.id));
    const started = (await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' })).json();
    expect(started).toMatchObject({ invoice: null, billing: { trialEndsAt: '2026-03-30T00:00:00.000Z' } });
  });

  it('a trial that crosses a month end bills nothing on the 1st; its first invoice covers the rest of the month it ends in', async () => {
    clock.set('2026-03-25T12:00:00.000Z');
    const { cookie, user } = await createUserWithSession(app());
    expect((await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' })).json().invoice).toBeNull();

    clock.set('2026-04-01T00:00:30.000Z');
    expect(await sweep()).toBe(0);
    expect(await invoicesOf(user.id)).toEqual([]);
    expect(await overviewAt('2026-04-02T00:00:00.000Z', user.id)).toMatchObject({
      plan: 'pro',
      trialEndsAt: '2026-04-08T12:00:00.000Z',
      // April 8, noon, to May 1: 22.5 of April's 30 days.
      estimatedBillCents: 2175,
    });

    clock.set('2026-04-08T12:00:00.000Z');
    expect(await sweep()).toBe(1);
    const [first] = await invoicesOf(user.id);
    expect(first).toMatchObject({
      amountCents: 2175,
      periodStart: new Date('2026-04-08T12:00:00.000Z'),
      periodEnd: new Date('2026-05-01T00:00:00.000Z'),
    });
    expect(first?.lines[0]?.description).toBe('Pro plan (monthly), Apr 8, 2026 to Apr 30, 2026, prorated');
  });

  it('a change between paid plans stays in the trial; the first invoice bills the plan held at its end', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    clock.set('2026-03-20T00:00:00.000Z');
    const later = await sessionFor(user.id);
    const preview = (await post('/api/v1/billing/preview', later, { plan: 'enterprise', period: 'yearly' })).json();
    expect(preview).toMatchObject({
      totalCents: 0,
      creditCents: 0,
      periodStart: '2026-03-16T00:00:00.000Z',
      periodEnd: '2026-03-30T00:00:00.000Z',
      lines: [{ description: 'Enterprise plan (yearly), free trial, Mar 20, 2026 to Mar 29, 2026', amountCents: 0 }],
      trial: { endsAt: '2026-03-30T00:00:00.000Z', firstInvoiceCents: 199_900 },
    });
    const change = (
      await post('/api/v1/billing/change-plan', later, { plan: 'enterprise', period: 'yearly', expectedTotalCents: 0 })
    ).json();
    expect(change.invoice).toBeNull();
    expect(change.billing).toMatchObject({
      plan: 'enterprise',
      period: 'yearly',
      trialEndsAt: '2026-03-30T00:00:00.000Z',
      estimatedBillCents: 199_900,
    });

    clock.set('2026-03-30T00:00:00.000Z');
    expect(await sweep()).toBe(1);
    const [first] = await invoicesOf(user.id);
    expect(first?.lines.map(({ description, amountCents }) => ({ description, amountCents }))).toEqual([
      { description: 'Enterprise plan (yearly), Mar 30, 2026 to Mar 29, 2027', amountCents: 199_900 },
    ]);
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub).toMatchObject({
      currentPeriodStart: new Date('2026-03-30T00:00:00.000Z'),
      currentPeriodEnd: new Date('2027-03-30T00:00:00.000Z'),
    });
  });

  it('cancelled in the trial, the plan ends with it and nothing is billed', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    const cancelled = (await post('/api/v1/billing/cancel', cookie)).json();
    expect(cancelled).toMatchObject({
      plan: 'pro',
      cancelAtPeriodEnd: true,
      trialEndsAt: '2026-03-30T00:00:00.000Z',
      estimatedBillCents: 0,
    });

    clock.set('2026-03-30T00:00:00.000Z');
    expect(await sweep()).toBe(1);
    expect(await planOf(user.id)).toBe('free');
    expect(await invoicesOf(user.id)).toEqual([]);
    // The trial is spent: a return to Pro is billed at once.
    expect(await overviewAt('2026-03-30T00:00:00.000Z', user.id)).toMatchObject({ plan: 'free', trialEndsAt: null, trialAvailable: false });
    const again = (await post('/api/v1/billing/preview', await sessionFor(user.id), { plan: 'pro' })).json();
    expect(again).toMatchObject({ trial: null, chargeCents: 187, totalCents: 187, prorated: true });
  });

  it('cancelled in the trial, the plan is not billed; tokens over its quota in the trial still are', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    await post('/api/v1/billing/cancel', cookie);
    await recordUsageEvents(db(), [usageEvent(user.id, '2026-03-20T10:00:00Z', { promptTokens: 1_000_000, completionTokens: 300_000 })]);
    expect(await overviewAt('2026-03-25T00:00:00.000Z', user.id)).toMatchObject({ cancelAtPeriodEnd: true, estimatedBillCents: 1500 });
    clock.set('2026-03-30T00:00:00.000Z');
    expect(await sweep()).toBe(1);
    expect(await planOf(user.id)).toBe('free');
    const [final, ...rest] = await invoicesOf(user.id);
    expect(rest).toEqual([]);
    expect(final?.lines.map(({ description, amountCents }) => ({ description, amountCents }))).toEqual([
      { description: 'Overage: 300,000 tokens over quota in March 2026', amountCents: 1500 },
    ]);
  });

  it('leaving for Free ends the trial with nothing to credit, and there is no second one', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'enterprise' });
    clock.set('2026-03-18T00:00:00.000Z');
    const later = await sessionFor(user.id);
    const preview = (await post('/api/v1/billing/preview', later, { plan: 'free' })).json();
    expect(preview).toMatchObject({ creditCents: 0, chargeCents: 0, totalCents: 0, lines: [], trial: null });
    const left = (await post('/api/v1/billing/change-plan', later, { plan: 'free', expectedTotalCents: 0 })).json();
    expect(left.invoice).toBeNull();
    expect(left.billing).toMatchObject({
      plan: 'free',
      trialEndsAt: null,
      trialAvailable: false,
      currentPeriodStart: '2026-03-01T00:00:00.000Z',
    });

    const back = (await post('/api/v1/billing/preview', later, { plan: 'pro' })).json();
    // March 18 to April 1: 14 of 31 days.
    expect(back).toMatchObject({ trial: null, chargeCents: 1310, totalCents: 1310 });
    const change = (await post('/api/v1/billing/change-plan', later, { plan: 'pro', expectedTotalCents: 1310 })).json();
    expect(change.invoice).toMatchObject({ amountCents: 1310, status: 'open' });
    expect(change.billing).toMatchObject({ plan: 'pro', trialEndsAt: null, nextBillingDate: '2026-04-01T00:00:00.000Z' });
    expect(await invoicesOf(user.id)).toHaveLength(1);
  });

  it('an account reclaimed by a password reset during the trial is not billed when it ends', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    expect(await stopRenewalOnReclaim(db(), user.id, clock.now())).toBe(true);
    clock.set('2026-04-02T00:00:00.000Z');
    expect(await sweep()).toBe(1);
    expect(await planOf(user.id)).toBe('free');
    expect(await invoicesOf(user.id)).toEqual([]);
  });

  it('tells the account once, three days before the trial ends, what will be billed and how to stop it', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    const yearly = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', yearly.cookie, { plan: 'enterprise', period: 'yearly' });
    const cancelled = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cancelled.cookie, { plan: 'pro' });
    await post('/api/v1/billing/cancel', cancelled.cookie);
    const remind = () => remindTrialsEnding(db(), app().context.mailer, clock.now(), 'https://conductor.example');
    const mailsTo = (email: string) => readOutbox(app().context, email, TRIAL_ENDING_MAIL_KIND);

    clock.set('2026-03-26T23:59:00.000Z');
    expect(await remind()).toBe(0);
    clock.set('2026-03-27T00:00:00.000Z');
    expect(await remind()).toBe(2);
    expect(await remind()).toBe(0);
    clock.set('2026-03-29T00:00:00.000Z');
    expect(await remind()).toBe(0);

    const [mail, ...more] = await mailsTo(user.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your Conductor Pro trial ends on Mar 30, 2026');
    expect(mail?.text).toBe(
      [
        `Hi ${user.name},`,
        '',
        'Your free trial of the Pro plan ends on Mar 30, 2026 at 00:00 UTC. From then Pro is $29/month: the first invoice, on that day, bills $1.87 for the rest of March 2026, with any tokens over the quota so far.',
        '',
        'To keep Pro, there is nothing to do. To end the trial without being billed for the plan, cancel your subscription in Billing before then:',
        '',
        'https://conductor.example/dashboard/billing',
        '',
        'The Conductor team',
      ].join('\n'),
    );
    // Enterprise has no quota, and a yearly plan's first invoice is a whole year.
    const [enterprise] = await mailsTo(yearly.user.email);
    expect(enterprise?.text).toContain(
      'From then Enterprise is $1,999/year: the first invoice, on that day, bills $1,999.00 for its first year.',
    );
    // A cancelled trial ends without a bill: nothing to announce.
    expect(await mailsTo(cancelled.user.email)).toEqual([]);
  });

  it('the server’s own sweep announces the trial’s end and then bills its first invoice, without any request', async () => {
    await restart({ billingSweepMs: 20 });
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    clock.set('2026-03-28T00:00:00.000Z');
    await expect.poll(async () => (await readOutbox(app().context, user.email, TRIAL_ENDING_MAIL_KIND)).length, { timeout: 5_000 }).toBe(1);
    expect(await invoicesOf(user.id)).toEqual([]);
    clock.set('2026-03-30T00:00:01.000Z');
    await expect.poll(async () => (await invoicesOf(user.id)).map((invoice) => invoice.amountCents), { timeout: 5_000 }).toEqual([187]);
    // The mail went once, however many sweeps ran since.
    expect(await readOutbox(app().context, user.email, TRIAL_ENDING_MAIL_KIND)).toHaveLength(1);
  });

  it('is announced once, whatever the account does after; a change of plan within the trial is announced again', async () => {
    const { cookie, user } = await createUserWithSession(app());
    await post('/api/v1/billing/change-plan', cookie, { plan: 'pro' });
    const remind = () => remindTrialsEnding(db(), app().context.mailer, clock.now(), 'https://conductor.example');
    const subjects = async () => (await readOutbox(app().context, user.email, TRIAL_ENDING_MAIL_KIND)).map((mail) => mail.subject);
    clock.set('2026-03-27T12:00:00.000Z');
    expect(await remind()).toBe(1);
    // Cancelled and resumed after the mail: the claim stays, no second mail.
    const later = await sessionFor(user.id);
    expect((await post('/api/v1/billing/cancel', later)).statusCode).toBe(200);
    expect((await post('/api/v1/billing/resume', later)).statusCode).toBe(200);
    expect(await remind()).toBe(0);
    // Moved to Enterprise within the trial: told again, of what Enterprise will bill.
    expect((await post('/api/v1/billing/change-plan', later, { plan: 'enterprise', expectedTotalCents: 0 })).json().invoice).toBeNull();
    expect(await remind()).toBe(1);
    expect(await subjects()).toEqual([
      'Your Conductor Enterprise trial ends on Mar 30, 2026',
      'Your Conductor Pro trial ends on Mar 30, 2026',
    ]);
  });
});
