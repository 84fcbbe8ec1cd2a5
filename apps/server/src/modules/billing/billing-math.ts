import { OVERAGE_USD_PER_1K_TOKENS, type PlanId, planById, planName, type UserPlan } from '@conductor/shared';
import type { BillingPeriod } from '@conductor/shared/schemas/billing';

/** Pure billing arithmetic: periods, prices, proration and overage. All money in cents, time in ms. */

export interface Period {
  start: number;
  end: number;
}

/** The UTC calendar month containing `at`: monthly periods follow the monthly token quota. */
export function calendarMonth(at: number): Period {
  const date = new Date(at);
  return {
    start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  };
}

/**
 * The same moment `months` calendar months later; a day the target month does not have (Feb 29
 * a year on, Jan 31 a month on) is its last day, not the next month's first days, so a yearly
 * period from Feb 29, 2028 ends on Feb 28, 2029 (365 days), not Mar 1.
 */
export function addMonths(at: number, months: number): number {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  );
}

/** The period after one that ended: the next calendar month, or the next year. */
export function nextPeriod(period: Period, kind: BillingPeriod): Period {
  return kind === 'monthly' ? calendarMonth(period.end) : { start: period.end, end: addMonths(period.end, 12) };
}

export const isPaidPlan = (plan: UserPlan): plan is 'pro' | 'enterprise' => plan === 'pro' || plan === 'enterprise';

/** Price of one period of a plan; bring-your-own-keys and free cost nothing. */
export function periodPriceCents(plan: UserPlan, period: BillingPeriod): number {
  if (!isPaidPlan(plan)) return 0;
  const price = planById(plan).price;
  return Math.round((period === 'monthly' ? price.monthly : price.yearly) * 100);
}

export { planName };

/** The unused fraction of a period at `now`, between 0 and 1. */
export function remainingFraction(period: Period, now: number): number {
  if (period.end <= period.start) return 0;
  return Math.min(1, Math.max(0, (period.end - now) / (period.end - period.start)));
}

/** Tokens over quota and their cost: $0.05 per 1K on Pro/Enterprise; free plans are throttled instead. */
export function overage(
  plan: UserPlan,
  tokensUsed: number,
  tokensLimit: number | null,
): { tokens: number; costCents: number; applies: boolean } {
  const applies = isPaidPlan(plan);
  if (!applies || tokensLimit === null) return { tokens: 0, costCents: 0, applies };
  const tokens = Math.max(0, tokensUsed - tokensLimit);
  return { tokens, costCents: overageCostCents(tokens), applies };
}

/** The overage price in whole cents per 1K tokens (5). */
const OVERAGE_CENTS_PER_1K = Math.round(OVERAGE_USD_PER_1K_TOKENS * 100);

/**
 * What tokens over quota cost: $0.05 per 1K, in cents, half a cent rounded up. Multiplied before
 * dividing, so a half cent is exact (700 tokens are 3.5 cents, where 0.7 × 0.05 × 100 gives
 * 3.4999… and rounded down).
 */
export const overageCostCents = (tokens: number): number => Math.round((tokens * OVERAGE_CENTS_PER_1K) / 1000);

/**
 * The calendar months a period touches up to `until` (exclusive), in order: the token quota is
 * monthly, so a yearly period's overage is counted month by month.
 */
export function monthsOf(period: Period, until: number): Period[] {
  const months: Period[] = [];
  const last = Math.min(period.end, until);
  for (let month = calendarMonth(period.start); month.start < last; month = calendarMonth(month.end)) months.push(month);
  return months;
}

export interface CurrentSubscription {
  plan: UserPlan;
  period: BillingPeriod;
  start: number;
  end: number;
}

const DAY_MS = 86_400_000;

/**
 * Where an account stands with its one free trial: `null` if it never had one; otherwise when it
 * ends or ended (a trial left early for an unpaid plan is ended then).
 */
export type TrialMark = number | null;

/** Whether a paid plan's free trial is running at `now` (then its end, `trialEndsAt`, is set). */
export const inTrial = (current: CurrentSubscription, trialEndsAt: TrialMark, now: number): trialEndsAt is number =>
  isPaidPlan(current.plan) && trialEndsAt !== null && trialEndsAt > now;

/**
 * The first invoice after a free trial that ends at `trialEnd`: the first paid period starts
 * then (a monthly plan's runs to the end of that calendar month and is prorated; a yearly plan's
 * is a whole year from then).
 */
export function afterTrial(plan: PlanId, period: BillingPeriod, trialEnd: number): Proration {
  return prorate({ plan: 'free', period: 'monthly', start: trialEnd, end: trialEnd }, plan, period, trialEnd);
}

export interface Proration {
  creditCents: number;
  chargeCents: number;
  totalCents: number;
  /** A credit for unused time, or a charge for part of the new period: not a whole price. */
  prorated: boolean;
  newPeriod: Period;
  lines: { description: string; amountCents: number }[];
}

const DAY_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** A UTC day as invoices and the dashboard write it: `Nov 28, 2026`. */
export const billingDay = (ms: number): string => DAY_FORMAT.format(ms);
const MONTH_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** A UTC month as invoices write it: `November 2026`. */
export const billingMonth = (ms: number): string => MONTH_FORMAT.format(ms);

export interface PlanChangeQuote extends Proration {
  /** The free trial the account is in after the change (it starts or goes on), or null. */
  trialEndsAt: number | null;
  /** What the trial mark becomes: set when a trial starts, moved to now when one is left early. */
  trialMark: TrialMark;
}

/**
 * What a plan change bills now. Every account has one free trial of `trialDays` (the target
 * plan's): the first move from an unpaid plan to a paid one starts it, and nothing is charged
 * for the plan until it ends. Within it, a change between paid plans or periods stays in the
 * trial (the first invoice follows the plan held at its end); a move to an unpaid plan ends it
 * with nothing to credit. Otherwise it is prorated (`prorate`).
 */
export function quotePlanChange(
  current: CurrentSubscription,
  trialMark: TrialMark,
  toPlan: PlanId,
  toPeriod: BillingPeriod,
  now: number,
  trialDays: number,
): PlanChangeQuote {
  const free = { creditCents: 0, chargeCents: 0, totalCents: 0, prorated: false };
  const trialLine = (start: number, end: number) => ({
    description: `${planName(toPlan)} plan (${toPeriod}), free trial, ${billingDay(start)} to ${billingDay(end - 1)}`,
    amountCents: 0,
  });
  if (inTrial(current, trialMark, now)) {
    if (isPaidPlan(toPlan)) {
      const newPeriod = { start: current.start, end: current.end };
      return { ...free, newPeriod, lines: [trialLine(now, trialMark)], trialEndsAt: trialMark, trialMark };
    }
    return { ...free, newPeriod: calendarMonth(now), lines: [], trialEndsAt: null, trialMark: now };
  }
  if (trialMark === null && isPaidPlan(toPlan) && !isPaidPlan(current.plan) && trialDays > 0) {
    const end = now + trialDays * DAY_MS;
    return { ...free, newPeriod: { start: now, end }, lines: [trialLine(now, end)], trialEndsAt: end, trialMark: end };
  }
  // Billed at once: an account that has been on a paid plan has had its chance of a trial (one on a
  // paid plan with no mark predates trials, or was moved there outside Billing).
  const billed = isPaidPlan(current.plan) || isPaidPlan(toPlan);
  return { ...prorate(current, toPlan, toPeriod, now), trialEndsAt: null, trialMark: trialMark ?? (billed ? now : null) };
}

/**
 * An immediate plan change: credit for the unused part of the current paid period, charge
 * for the rest of the new one (a monthly plan's unused part is of its calendar month, its
 * period's start may be later). Monthly plans stay on the calendar month; a yearly plan
 * keeps its year when only the plan changes, otherwise a new year starts now.
 */
export function prorate(current: CurrentSubscription, toPlan: PlanId, toPeriod: BillingPeriod, now: number): Proration {
  const oldPrice = periodPriceCents(current.plan, current.period);
  const newPrice = periodPriceCents(toPlan, toPeriod);
  // A monthly price is for a calendar month, also when the period began later in it (after a trial
  // that ended mid-month, only the rest of the month was billed): the unused part is of that month.
  const priced =
    current.period === 'monthly' && current.end > current.start
      ? { start: calendarMonth(current.end - 1).start, end: current.end }
      : current;
  const creditCents = oldPrice > 0 ? Math.round(oldPrice * remainingFraction(priced, now)) : 0;
  let newPeriod: Period;
  if (toPeriod === 'monthly') newPeriod = calendarMonth(now);
  else if (current.period === 'yearly' && oldPrice > 0) newPeriod = { start: current.start, end: current.end };
  else newPeriod = { start: now, end: addMonths(now, 12) };
  const chargeCents = newPrice > 0 ? Math.round(newPrice * remainingFraction(newPeriod, now)) : 0;
  const lines: Proration['lines'] = [];
  const partCharge = chargeCents > 0 && chargeCents < newPrice;
  if (chargeCents > 0) {
    lines.push({
      // "prorated" only when it is a part of the price: a yearly plan that starts now is charged in full.
      description: `${planName(toPlan)} plan (${toPeriod}), ${billingDay(Math.max(now, newPeriod.start))} to ${billingDay(newPeriod.end - 1)}${partCharge ? ', prorated' : ''}`,
      amountCents: chargeCents,
    });
  }
  if (creditCents > 0) {
    lines.push({ description: `Unused time on ${planName(current.plan)} plan (${current.period})`, amountCents: -creditCents });
  }
  return { creditCents, chargeCents, totalCents: chargeCents - creditCents, prorated: partCharge || creditCents > 0, newPeriod, lines };
}
