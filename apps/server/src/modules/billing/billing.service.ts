import { randomBytes, randomUUID } from 'node:crypto';
import { limitsForPlan, planById, type UserPlan } from '@conductor/shared';
import {
  type BillingOverview,
  type BillingPeriod,
  formatCents,
  type Invoice,
  type ProrationPreview,
} from '@conductor/shared/schemas/billing';
import { withAccountLock } from '../../db/account-lock.ts';
import type { Database } from '../../db/client.ts';
import { invalidateAccountCache } from '../../gateway/gateway.plugin.ts';
import { AppError } from '../../lib/errors.ts';
import { currentUsage, liveTokensPerMonth } from '../usage/usage.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import {
  afterTrial,
  billingDay,
  billingMonth,
  calendarMonth,
  inTrial,
  isPaidPlan,
  monthsOf,
  nextPeriod,
  overage,
  overageCostCents,
  type Period,
  periodPriceCents,
  type PlanChangeQuote,
  planName,
  quotePlanChange,
} from './billing-math.ts';
import {
  type DueCursor,
  findInvoiceOfUser,
  findSubscription,
  type InvoiceRow,
  insertInvoice,
  listInvoicesOfUser,
  lockUserPlan,
  overageTokensBilled,
  saveSubscription,
  setUserPlan,
  updateSubscription,
  type SubscriptionRow,
  subscriptionsDue,
} from './billing.repository.ts';

type BillingUser = Pick<UserRow, 'id' | 'plan'>;
/** A plan change needs to know whether the account's address is confirmed: a free trial needs it. */
type ChangingUser = Pick<UserRow, 'id' | 'plan' | 'verified'>;

/** Why a free trial was refused: an address nobody has confirmed could be anyone's, or no one's. */
export const TRIAL_NEEDS_CONFIRMED_EMAIL =
  'Confirm your email address to start your free trial: use the link we sent you, or send a new one from the banner at the top of the page.';
type InvoiceLine = InvoiceRow['lines'][number];
const MAX_ROLLOVERS = 60;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function invoiceNumber(now: number): string {
  return `INV-${day(now).slice(0, 7).replace('-', '')}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    amountCents: row.amountCents,
    status: row.status,
    lines: row.lines.map(({ description, amountCents }) => ({ description, amountCents })),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Serialises billing changes of one user (several instances may serve them). */
const withUserLock = <T>(db: Database, userId: string, work: (tx: Database) => Promise<T>) => withAccountLock(db, 'billing', userId, work);

/**
 * Brings the subscription up to date: creates it on first use, follows plan changes made
 * elsewhere (onboarding), and renews finished periods (an invoice per paid renewal, with
 * the closed month's overage) or ends them when cancelled.
 */
async function syncWithin(db: Database, userId: string, now: number): Promise<SubscriptionRow> {
  const storedPlan = await lockUserPlan(db, userId);
  if (!storedPlan) throw new AppError('not_found', 'Account not found.');
  let sub = await findSubscription(db, userId);
  const month = calendarMonth(now);
  if (!sub) {
    return saveSubscription(db, {
      userId,
      plan: storedPlan,
      period: 'monthly',
      currentPeriodStart: new Date(month.start),
      currentPeriodEnd: new Date(month.end),
      // An account already on a paid plan (set outside Billing) is billed from now: no trial to come.
      trialEndsAt: isPaidPlan(storedPlan) ? new Date(now) : null,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    });
  }
  let plan = storedPlan;
  let period: BillingPeriod = sub.period;
  let start = sub.currentPeriodStart.getTime();
  let end = sub.currentPeriodEnd.getTime();
  let cancelAtPeriodEnd = sub.cancelAtPeriodEnd;
  if (!isPaidPlan(plan)) cancelAtPeriodEnd = false;
  const trialEnd = sub.trialEndsAt?.getTime() ?? null;
  for (let step = 0; end <= now && step < MAX_ROLLOVERS; step += 1) {
    const closed = { start, end };
    if (cancelAtPeriodEnd && isPaidPlan(plan)) {
      // The last period's overage is still owed: a final invoice, dated when the period ended.
      const lines = await overageLines(db, userId, plan, closed, closed.end);
      if (lines.length > 0) await issueInvoice(db, userId, closed, lines, closed.end);
      plan = 'free';
      await setUserPlan(db, userId, 'free', now);
      period = 'monthly';
      ({ start, end } = month);
      cancelAtPeriodEnd = false;
      break;
    }
    if (step === 0 && closed.end === trialEnd && isPaidPlan(plan)) {
      // The free trial is over: the first paid period starts now, and its invoice bills the trial's overage too.
      const first = afterTrial(plan, period, closed.end);
      const lines = [...first.lines, ...(await overageLines(db, userId, plan, closed, closed.end))];
      // The period is the one billed, from the trial's end (not the 1st of its month): a monthly
      // plan's credit on a later change is still worked out on the calendar month (`prorate`).
      const billed = { start: closed.end, end: first.newPeriod.end };
      await issueInvoice(db, userId, billed, lines, closed.end);
      ({ start, end } = billed);
      continue;
    }
    const next = nextPeriod(closed, period);
    if (isPaidPlan(plan)) await invoiceRenewal(db, userId, plan, period, closed, next);
    ({ start, end } = next);
  }
  if (end <= now) ({ start, end } = month);
  if (!isPaidPlan(plan) && period === 'yearly') period = 'monthly';
  const unchanged =
    sub.plan === plan &&
    sub.period === period &&
    sub.currentPeriodStart.getTime() === start &&
    sub.currentPeriodEnd.getTime() === end &&
    sub.cancelAtPeriodEnd === cancelAtPeriodEnd;
  if (!unchanged) {
    sub = await saveSubscription(db, {
      userId,
      plan,
      period,
      currentPeriodStart: new Date(start),
      currentPeriodEnd: new Date(end),
      cancelAtPeriodEnd,
      updatedAt: new Date(now),
    });
  }
  return sub;
}

/**
 * The overage of a paid plan over a period, up to `until`, as invoice lines: one per calendar
 * month (the quota is monthly) for the tokens over quota not yet on an earlier invoice (a plan
 * change bills the month so far; its renewal then bills only the rest).
 */
async function overageLines(
  db: Database,
  userId: string,
  plan: 'pro' | 'enterprise',
  period: Period,
  until: number,
): Promise<InvoiceLine[]> {
  const quota = limitsForPlan(plan).tokensPerMonth;
  if (quota === null) return [];
  const months = monthsOf(period, until);
  const first = months[0];
  const last = months.at(-1);
  if (!first || !last) return [];
  // One query for every month's tokens; what earlier invoices billed is read only for months over quota.
  const usedByMonth = await liveTokensPerMonth(db, userId, day(first.start), day(last.end - 1));
  const lines: InvoiceLine[] = [];
  for (const month of months) {
    const name = day(month.start).slice(0, 7);
    const over = overage(plan, usedByMonth.get(name) ?? 0, quota).tokens;
    if (over <= 0) continue;
    const tokens = over - (await overageTokensBilled(db, userId, name));
    if (tokens <= 0) continue;
    lines.push({
      description: `Overage: ${tokens.toLocaleString('en-US')} tokens over quota in ${billingMonth(month.start)}`,
      amountCents: overageCostCents(tokens),
      overage: { month: name, tokens },
    });
  }
  return lines;
}

/**
 * Leaving a plan without a quota (Enterprise) for one with a quota (Pro): the month's tokens so
 * far were used under the unlimited plan, which has no overage to bill, so nothing would tell the
 * new plan's overage apart from them, and its renewal would bill them as overage. They are
 * recorded as covered instead: a line at no charge carrying the tokens over the new plan's quota
 * this month so far, which later overage subtracts as it does tokens an earlier invoice billed.
 */
async function coveredUsageLines(
  db: Database,
  userId: string,
  fromPlan: UserPlan,
  toPlan: PlanChange['plan'],
  now: number,
): Promise<InvoiceLine[]> {
  if (!isPaidPlan(fromPlan) || !isPaidPlan(toPlan) || limitsForPlan(fromPlan).tokensPerMonth !== null) return [];
  // Only this month: the new plan's periods start now, so no earlier month is ever billed under it.
  const thisMonth = calendarMonth(now);
  const lines = await overageLines(db, userId, toPlan, thisMonth, now);
  return lines.flatMap(({ overage: over }) =>
    over
      ? [
          {
            description: `${planName(fromPlan)} plan usage: ${over.tokens.toLocaleString('en-US')} tokens over the ${planName(toPlan)} quota in ${billingMonth(thisMonth.start)}, covered (no charge)`,
            amountCents: 0,
            overage: over,
          },
        ]
      : [],
  );
}

async function issueInvoice(db: Database, userId: string, period: Period, lines: InvoiceLine[], at: number): Promise<InvoiceRow> {
  const amountCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  return insertInvoice(db, {
    id: `inv_${randomUUID().replaceAll('-', '')}`,
    userId,
    number: invoiceNumber(at),
    periodStart: new Date(period.start),
    periodEnd: new Date(period.end),
    amountCents,
    lines,
    // No payment processor is reachable: a charge stays open until paid; a credit note is settled by issuing it.
    status: amountCents > 0 ? 'open' : 'paid',
    createdAt: new Date(at),
  });
}

/** A paid renewal: the next period's price and the closed period's overage, dated at the renewal. */
async function invoiceRenewal(
  db: Database,
  userId: string,
  plan: 'pro' | 'enterprise',
  period: BillingPeriod,
  closed: Period,
  next: Period,
): Promise<void> {
  const price = periodPriceCents(plan, period);
  const lines: InvoiceLine[] = [
    { description: `${planName(plan)} plan (${period}), ${billingDay(next.start)} to ${billingDay(next.end - 1)}`, amountCents: price },
    ...(await overageLines(db, userId, plan, closed, closed.end)),
  ];
  await issueInvoice(db, userId, next, lines, next.start);
}

export async function syncSubscription(db: Database, user: BillingUser, now: number): Promise<SubscriptionRow> {
  const sub = await withUserLock(db, user.id, (tx) => syncWithin(tx, user.id, now));
  // A cancellation that took effect changed the plan: the gateway's cached limits must follow (after commit).
  if (sub.plan !== user.plan) invalidateAccountCache(user.id);
  return sub;
}

export async function billingOverview(db: Database, user: BillingUser, now: number): Promise<BillingOverview> {
  const sub = await syncSubscription(db, user, now);
  const plan = sub.plan as UserPlan;
  const usage = await currentUsage(db, { id: user.id, plan }, now);
  // What the next invoice would bill: every month of the period so far (a yearly plan's renewal
  // bills each month's), less tokens already billed by a plan change.
  const owed = isPaidPlan(plan) ? await overageLines(db, user.id, plan, currentOf(sub), now) : [];
  const extra = {
    tokens: owed.reduce((sum, line) => sum + (line.overage?.tokens ?? 0), 0),
    costCents: owed.reduce((sum, line) => sum + line.amountCents, 0),
    applies: isPaidPlan(plan),
  };
  const priceCents = periodPriceCents(plan, sub.period);
  const current = currentOf(sub);
  const trialEndsAt = inTrial(current, current.trialMark, now) ? current.end : null;
  // In a trial the next invoice is the first one: the first period's price from the trial's end.
  const renewalCents = trialEndsAt !== null && isPaidPlan(plan) ? afterTrial(plan, sub.period, trialEndsAt).chargeCents : priceCents;
  return {
    plan,
    planName: planName(plan),
    period: sub.period,
    priceCents,
    currentPeriodStart: sub.currentPeriodStart.toISOString(),
    currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
    nextBillingDate: sub.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    trialEndsAt: trialEndsAt === null ? null : new Date(trialEndsAt).toISOString(),
    trialAvailable: !isPaidPlan(plan) && current.trialMark === null,
    usage: { tokensUsed: usage.tokensUsed, ownKeyTokens: usage.ownKeyTokens, tokensLimit: usage.tokensLimit, monthStart: usage.monthStart },
    overage: extra,
    estimatedBillCents: (sub.cancelAtPeriodEnd ? 0 : renewalCents) + extra.costCents,
    paymentMethod: null,
  };
}

function checkChange(sub: SubscriptionRow, toPlan: 'free' | 'pro' | 'enterprise', toPeriod: BillingPeriod): BillingPeriod {
  const period = toPlan === 'free' ? 'monthly' : toPeriod;
  if (sub.plan === toPlan && sub.period === period) {
    throw new AppError('conflict', `You are already on the ${planName(toPlan)} plan (${period}).`);
  }
  return period;
}

/**
 * What a plan change bills now: the prorated difference, plus the overage owed so far under a
 * paid plan being left (it would otherwise go unbilled: the new plan's renewal does not bill it).
 */
interface Quote {
  period: BillingPeriod;
  proration: PlanChangeQuote;
  overage: InvoiceLine[];
  overageCents: number;
  totalCents: number;
}

async function quote(db: Database, sub: SubscriptionRow, change: PlanChange, verified: boolean, now: number): Promise<Quote> {
  const period = checkChange(sub, change.plan, change.period);
  const current = currentOf(sub);
  const proration = quotePlanChange(current, current.trialMark, change.plan, period, now, planById(change.plan).trialDays);
  // Only a confirmed address starts a trial: else anyone could open accounts for free traffic, and
  // an account opened with someone else's address would spend its owner's one trial.
  if (!verified && proration.trialEndsAt !== null && !inTrial(current, current.trialMark, now)) {
    throw new AppError('forbidden', TRIAL_NEEDS_CONFIRMED_EMAIL);
  }
  const owed = isPaidPlan(current.plan) ? await overageLines(db, sub.userId, current.plan, current, now) : [];
  owed.push(...(await coveredUsageLines(db, sub.userId, current.plan, change.plan, now)));
  const overageCents = owed.reduce((sum, line) => sum + line.amountCents, 0);
  return { period, proration, overage: owed, overageCents, totalCents: proration.totalCents + overageCents };
}

function toPreview(
  sub: SubscriptionRow,
  toPlan: 'free' | 'pro' | 'enterprise',
  { period, proration, overage: owed, overageCents, totalCents }: Quote,
): ProrationPreview {
  return {
    fromPlan: sub.plan as UserPlan,
    fromPeriod: sub.period,
    toPlan,
    toPeriod: period,
    creditCents: proration.creditCents,
    chargeCents: proration.chargeCents,
    overageCents,
    totalCents,
    prorated: proration.prorated,
    periodStart: new Date(proration.newPeriod.start).toISOString(),
    periodEnd: new Date(proration.newPeriod.end).toISOString(),
    lines: [...proration.lines, ...owed].map(({ description, amountCents }) => ({ description, amountCents })),
    trial:
      proration.trialEndsAt === null
        ? null
        : {
            endsAt: new Date(proration.trialEndsAt).toISOString(),
            firstInvoiceCents: afterTrial(toPlan, period, proration.trialEndsAt).chargeCents,
          },
  };
}

function currentOf(sub: SubscriptionRow) {
  return {
    plan: sub.plan as UserPlan,
    period: sub.period,
    start: sub.currentPeriodStart.getTime(),
    end: sub.currentPeriodEnd.getTime(),
    trialMark: sub.trialEndsAt?.getTime() ?? null,
  };
}

/**
 * Whether what the user confirmed (the preview's total, and its overage when sent) still covers
 * the change. The prorated difference must be exactly the one shown (time passing moves it by a
 * cent every few minutes; a price, period or plan changed since moves it more), while the overage
 * owed is metered and may only have grown since the preview: tokens keep being used under the plan
 * being left, and the change bills them as metered, else live traffic would block every change.
 * Without the overage shown, the whole total must be the one shown.
 */
export function coversQuote(
  shown: { totalCents: number; overageCents?: number | undefined },
  now: { prorationCents: number; overageCents: number },
): boolean {
  if (shown.overageCents === undefined) return shown.totalCents === now.prorationCents + now.overageCents;
  return shown.totalCents - shown.overageCents === now.prorationCents && shown.overageCents <= now.overageCents;
}

export interface PlanChange {
  plan: 'free' | 'pro' | 'enterprise';
  period: BillingPeriod;
  /** The amount the user was shown (the preview's `totalCents`): refused with 409 if it no longer covers the change (`coversQuote`). */
  expectedTotalCents?: number | undefined;
  /** The preview's `overageCents`, shown with that total. */
  expectedOverageCents?: number | undefined;
}

export async function previewPlanChange(db: Database, user: ChangingUser, change: PlanChange, now: number): Promise<ProrationPreview> {
  const sub = await syncSubscription(db, user, now);
  return toPreview(sub, change.plan, await quote(db, sub, change, user.verified, now));
}

/**
 * Changes plan at once; the prorated difference (and overage owed) becomes an invoice (due) or a
 * credit note. The account's first move to a paid plan starts its free trial instead: nothing is
 * billed for the plan until the trial ends (`quotePlanChange`).
 */
export async function changePlan(db: Database, user: ChangingUser, change: PlanChange, now: number): Promise<{ invoice: Invoice | null }> {
  const result = await applyPlanChange(db, user, change, now);
  // Limits follow the plan at once: drop the gateway's cached account (after the commit).
  invalidateAccountCache(user.id);
  return result;
}

function applyPlanChange(db: Database, user: ChangingUser, change: PlanChange, now: number): Promise<{ invoice: Invoice | null }> {
  return withUserLock(db, user.id, async (tx) => {
    const sub = await syncWithin(tx, user.id, now);
    const { period, proration, overage: owed, overageCents, totalCents } = await quote(tx, sub, change, user.verified, now);
    // Charged only what the user was shown: time passing (a cent of proration every few minutes) or
    // a plan changed elsewhere since the preview make it another amount. Overage is metered: tokens
    // used since the preview are billed with it (`coversQuote`), else live traffic blocks the change.
    const shown =
      change.expectedTotalCents === undefined
        ? undefined
        : { totalCents: change.expectedTotalCents, overageCents: change.expectedOverageCents };
    if (shown && !coversQuote(shown, { prorationCents: proration.totalCents, overageCents })) {
      const amount = formatCents(Math.abs(totalCents));
      throw new AppError(
        'quote_expired',
        `This change now comes to ${totalCents >= 0 ? `${amount} due` : `a ${amount} credit`}, not the amount shown. Review it again to confirm.`,
      );
    }
    await setUserPlan(tx, user.id, change.plan, now);
    await saveSubscription(tx, {
      userId: user.id,
      plan: change.plan,
      period,
      currentPeriodStart: new Date(proration.newPeriod.start),
      currentPeriodEnd: new Date(proration.newPeriod.end),
      // A pending cancellation outlives a change between paid plans (as Stripe's cancel_at_period_end
      // outlives a price change): the new plan ends with its period. A move to Free has nothing to cancel.
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd && isPaidPlan(sub.plan as UserPlan) && isPaidPlan(change.plan),
      trialEndsAt: proration.trialMark === null ? null : new Date(proration.trialMark),
      // A trial that goes on under another plan or period is announced again, with what that one will bill.
      ...(proration.trialEndsAt !== null ? { trialRemindedAt: null } : {}),
      updatedAt: new Date(now),
    });
    // A trial's start (or a change within it) bills nothing: no invoice unless overage is owed.
    if (totalCents === 0 && owed.length === 0) return { invoice: null };
    const billed = { start: Math.max(now, proration.newPeriod.start), end: proration.newPeriod.end };
    const row = await issueInvoice(tx, user.id, billed, [...proration.lines, ...owed], now);
    return { invoice: toInvoice(row) };
  });
}

export async function setCancelAtPeriodEnd(db: Database, user: BillingUser, cancel: boolean, now: number): Promise<void> {
  await withUserLock(db, user.id, async (tx) => {
    const sub = await syncWithin(tx, user.id, now);
    if (!isPaidPlan(sub.plan as UserPlan)) throw new AppError('conflict', 'Only paid plans can be cancelled.');
    if (sub.cancelAtPeriodEnd === cancel) {
      throw new AppError('conflict', cancel ? 'Your subscription is already set to cancel.' : 'Your subscription is not set to cancel.');
    }
    await updateSubscription(tx, user.id, { cancelAtPeriodEnd: cancel, updatedAt: new Date(now) });
  });
}

/**
 * A reset reclaimed an unconfirmed account (password-reset.service.ts): a paid plan its creator
 * chose stops renewing, so the address's owner is not billed for it; the period already paid for
 * runs out, and the owner may resume it in Billing. Returns whether it was set to cancel.
 */
export async function stopRenewalOnReclaim(db: Database, userId: string, now: number): Promise<boolean> {
  return withUserLock(db, userId, async (tx) => {
    const sub = await syncWithin(tx, userId, now);
    if (!isPaidPlan(sub.plan as UserPlan) || sub.cancelAtPeriodEnd) return false;
    await updateSubscription(tx, userId, { cancelAtPeriodEnd: true, updatedAt: new Date(now) });
    return true;
  });
}

/**
 * An account being deleted ends its subscription now, under its billing lock: a period that ended is
 * closed as a cancellation would close it (its overage billed, no renewal), the overage owed so far
 * in the current period goes on a final invoice dated now, and `remove` (the account's deletion)
 * runs in the same transaction, so no sweep renews the account in between. The invoices outlive the
 * account (their `user_id` becomes null). Returns the final invoice, if any.
 */
export async function closeBillingAndRemove(
  db: Database,
  userId: string,
  now: number,
  remove: (tx: Database) => Promise<void>,
): Promise<InvoiceRow | null> {
  return withUserLock(db, userId, async (tx) => {
    const existing = await findSubscription(tx, userId);
    if (existing && isPaidPlan(existing.plan as UserPlan) && !existing.cancelAtPeriodEnd) {
      await updateSubscription(tx, userId, { cancelAtPeriodEnd: true, updatedAt: new Date(now) });
    }
    const sub = await syncWithin(tx, userId, now);
    const plan = sub.plan as UserPlan;
    let final: InvoiceRow | null = null;
    if (isPaidPlan(plan)) {
      const current = currentOf(sub);
      const lines = await overageLines(tx, userId, plan, current, now);
      if (lines.length > 0) final = await issueInvoice(tx, userId, { start: current.start, end: Math.max(now, current.start) }, lines, now);
    }
    await remove(tx);
    return final;
  });
}

export async function listInvoices(db: Database, user: BillingUser, now: number): Promise<Invoice[]> {
  await syncSubscription(db, user, now);
  return (await listInvoicesOfUser(db, user.id)).map(toInvoice);
}

export async function findInvoice(db: Database, userId: string, id: string): Promise<InvoiceRow> {
  const row = await findInvoiceOfUser(db, userId, id);
  if (!row) throw new AppError('not_found', 'Invoice not found.');
  return row;
}

/** How many due subscriptions are read at a time. */
export const RENEWAL_BATCH = 100;

/**
 * Renews or ends every subscription whose period is over (oldest first, a batch at a time), so a
 * cancellation takes effect and a renewal is invoiced when its period ends, not when the account
 * next opens Billing. Every instance may run it: the per-account lock makes a second run for the
 * same account a no-op. One account's failure does not stop the rest, and an account that keeps
 * failing is passed over, not read again (the walk goes on after the last one read), so it cannot
 * hold back the ones behind it. Returns how many were due.
 */
export async function renewDueSubscriptions(
  db: Database,
  now: number,
  { onError, batch = RENEWAL_BATCH }: { onError: (userId: string, error: unknown) => void; batch?: number },
): Promise<number> {
  let total = 0;
  let after: DueCursor | undefined;
  for (;;) {
    const due = await subscriptionsDue(db, now, batch, after);
    for (const account of due) {
      try {
        await syncSubscription(db, { id: account.userId, plan: account.plan }, now);
      } catch (error) {
        onError(account.userId, error);
      }
    }
    total += due.length;
    const last = due.at(-1);
    if (!last || due.length < batch) return total;
    after = { periodEnd: last.periodEnd, userId: last.userId };
  }
}
