import { randomBytes, randomUUID } from 'node:crypto';
import { limitsForPlan, type UserPlan } from '@conductor/shared';
import type { BillingOverview, BillingPeriod, Invoice, ProrationPreview } from '@conductor/shared/schemas/billing';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { invalidateAccountCache } from '../../gateway/gateway.plugin.ts';
import { AppError } from '../../lib/errors.ts';
import { currentUsage, liveTokensInDays } from '../usage/usage.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { calendarMonth, isPaidPlan, nextPeriod, overage, periodPriceCents, planName, type Proration, prorate } from './billing-math.ts';
import {
  findInvoiceOfUser,
  findSubscription,
  type InvoiceRow,
  insertInvoice,
  listInvoicesOfUser,
  saveSubscription,
  setUserPlan,
  type SubscriptionRow,
} from './billing.repository.ts';

type BillingUser = Pick<UserRow, 'id' | 'plan'>;
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
    lines: row.lines,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Serialises billing changes of one user (several instances may serve them). */
async function withUserLock<T>(db: Database, userId: string, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`billing:${userId}`}))`);
    return work(tx as unknown as Database);
  });
}

/**
 * Brings the subscription up to date: creates it on first use, follows plan changes made
 * elsewhere (onboarding), and renews finished periods (an invoice per paid renewal, with
 * the closed month's overage) or ends them when cancelled.
 */
async function syncWithin(db: Database, user: BillingUser, now: number): Promise<SubscriptionRow> {
  let sub = await findSubscription(db, user.id);
  const month = calendarMonth(now);
  if (!sub) {
    return saveSubscription(db, {
      userId: user.id,
      plan: user.plan,
      period: 'monthly',
      currentPeriodStart: new Date(month.start),
      currentPeriodEnd: new Date(month.end),
      createdAt: new Date(now),
      updatedAt: new Date(now),
    });
  }
  let plan = user.plan;
  let period: BillingPeriod = sub.period;
  let start = sub.currentPeriodStart.getTime();
  let end = sub.currentPeriodEnd.getTime();
  let cancelAtPeriodEnd = sub.cancelAtPeriodEnd;
  if (!isPaidPlan(plan)) cancelAtPeriodEnd = false;
  for (let step = 0; end <= now && step < MAX_ROLLOVERS; step += 1) {
    if (cancelAtPeriodEnd) {
      plan = 'free';
      await setUserPlan(db, user.id, 'free', now);
      period = 'monthly';
      ({ start, end } = month);
      cancelAtPeriodEnd = false;
      break;
    }
    const closed = { start, end };
    const next = nextPeriod(closed, period);
    if (isPaidPlan(plan)) await invoiceRenewal(db, user.id, plan, period, closed, next, now);
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
      userId: user.id,
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

async function invoiceRenewal(
  db: Database,
  userId: string,
  plan: 'pro' | 'enterprise',
  period: BillingPeriod,
  closed: { start: number; end: number },
  next: { start: number; end: number },
  now: number,
): Promise<void> {
  const price = periodPriceCents(plan, period);
  const lines = [{ description: `${planName(plan)} plan (${period}), ${day(next.start)} to ${day(next.end - 1)}`, amountCents: price }];
  if (period === 'monthly') {
    const used = await liveTokensInDays(db, userId, day(closed.start), day(closed.end - 1));
    const extra = overage(plan, used, limitsForPlan(plan).tokensPerMonth);
    if (extra.costCents > 0) {
      lines.push({
        description: `Overage: ${extra.tokens.toLocaleString('en-US')} tokens over quota in ${day(closed.start).slice(0, 7)}`,
        amountCents: extra.costCents,
      });
    }
  }
  await insertInvoice(db, {
    id: `inv_${randomUUID().replaceAll('-', '')}`,
    userId,
    number: invoiceNumber(now),
    periodStart: new Date(next.start),
    periodEnd: new Date(next.end),
    amountCents: lines.reduce((sum, line) => sum + line.amountCents, 0),
    lines,
    // No payment processor is reachable: a renewal stays open until paid.
    status: 'open',
    createdAt: new Date(now),
  });
}

export async function syncSubscription(db: Database, user: BillingUser, now: number): Promise<SubscriptionRow> {
  const sub = await withUserLock(db, user.id, (tx) => syncWithin(tx, user, now));
  // A cancellation that took effect changed the plan: the gateway's cached limits must follow (after commit).
  if (sub.plan !== user.plan) invalidateAccountCache(user.id);
  return sub;
}

export async function billingOverview(db: Database, user: BillingUser, now: number): Promise<BillingOverview> {
  const sub = await syncSubscription(db, user, now);
  const plan = sub.plan as UserPlan;
  const usage = await currentUsage(db, { id: user.id, plan }, now);
  const extra = overage(plan, usage.tokensUsed, usage.tokensLimit);
  const priceCents = periodPriceCents(plan, sub.period);
  return {
    plan,
    planName: planName(plan),
    period: sub.period,
    priceCents,
    currentPeriodStart: sub.currentPeriodStart.toISOString(),
    currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
    nextBillingDate: sub.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    usage: { tokensUsed: usage.tokensUsed, tokensLimit: usage.tokensLimit, monthStart: usage.monthStart },
    overage: extra,
    estimatedBillCents: (sub.cancelAtPeriodEnd ? 0 : priceCents) + extra.costCents,
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

function toPreview(
  sub: SubscriptionRow,
  toPlan: 'free' | 'pro' | 'enterprise',
  toPeriod: BillingPeriod,
  proration: Proration,
): ProrationPreview {
  return {
    fromPlan: sub.plan as UserPlan,
    fromPeriod: sub.period,
    toPlan,
    toPeriod,
    creditCents: proration.creditCents,
    chargeCents: proration.chargeCents,
    totalCents: proration.totalCents,
    periodStart: new Date(proration.newPeriod.start).toISOString(),
    periodEnd: new Date(proration.newPeriod.end).toISOString(),
    lines: proration.lines,
  };
}

function currentOf(sub: SubscriptionRow) {
  return { plan: sub.plan as UserPlan, period: sub.period, start: sub.currentPeriodStart.getTime(), end: sub.currentPeriodEnd.getTime() };
}

export interface PlanChange {
  plan: 'free' | 'pro' | 'enterprise';
  period: BillingPeriod;
}

export async function previewPlanChange(db: Database, user: BillingUser, change: PlanChange, now: number): Promise<ProrationPreview> {
  const sub = await syncSubscription(db, user, now);
  const period = checkChange(sub, change.plan, change.period);
  return toPreview(sub, change.plan, period, prorate(currentOf(sub), change.plan, period, now));
}

/** Changes plan at once; the prorated difference becomes an invoice (due) or a credit note. */
export async function changePlan(db: Database, user: BillingUser, change: PlanChange, now: number): Promise<{ invoice: Invoice | null }> {
  const result = await applyPlanChange(db, user, change, now);
  // Limits follow the plan at once: drop the gateway's cached account (after the commit).
  invalidateAccountCache(user.id);
  return result;
}

function applyPlanChange(db: Database, user: BillingUser, change: PlanChange, now: number): Promise<{ invoice: Invoice | null }> {
  return withUserLock(db, user.id, async (tx) => {
    const sub = await syncWithin(tx, user, now);
    const period = checkChange(sub, change.plan, change.period);
    const proration = prorate(currentOf(sub), change.plan, period, now);
    await setUserPlan(tx, user.id, change.plan, now);
    await saveSubscription(tx, {
      userId: user.id,
      plan: change.plan,
      period,
      currentPeriodStart: new Date(proration.newPeriod.start),
      currentPeriodEnd: new Date(proration.newPeriod.end),
      cancelAtPeriodEnd: false,
      updatedAt: new Date(now),
    });
    if (proration.totalCents === 0) return { invoice: null };
    const row = await insertInvoice(tx, {
      id: `inv_${randomUUID().replaceAll('-', '')}`,
      userId: user.id,
      number: invoiceNumber(now),
      periodStart: new Date(Math.max(now, proration.newPeriod.start)),
      periodEnd: new Date(proration.newPeriod.end),
      amountCents: proration.totalCents,
      lines: proration.lines,
      // A charge stays open (no card on file); a credit note is settled by issuing it.
      status: proration.totalCents > 0 ? 'open' : 'paid',
      createdAt: new Date(now),
    });
    return { invoice: toInvoice(row) };
  });
}

export async function setCancelAtPeriodEnd(db: Database, user: BillingUser, cancel: boolean, now: number): Promise<void> {
  await withUserLock(db, user.id, async (tx) => {
    const sub = await syncWithin(tx, user, now);
    if (!isPaidPlan(sub.plan as UserPlan)) throw new AppError('conflict', 'Only paid plans can be cancelled.');
    if (sub.cancelAtPeriodEnd === cancel) {
      throw new AppError('conflict', cancel ? 'Your subscription is already set to cancel.' : 'Your subscription is not set to cancel.');
    }
    await saveSubscription(tx, { ...sub, cancelAtPeriodEnd: cancel, updatedAt: new Date(now) });
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
