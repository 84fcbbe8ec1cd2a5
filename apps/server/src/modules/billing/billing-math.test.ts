import { describe, expect, it } from 'vitest';
import {
  addMonths,
  afterTrial,
  calendarMonth,
  inTrial,
  nextPeriod,
  overage,
  overageCostCents,
  periodPriceCents,
  prorate,
  quotePlanChange,
  remainingFraction,
} from './billing-math.ts';

const at = (iso: string) => Date.parse(iso);

describe('billing arithmetic', () => {
  it('uses UTC calendar months, including across a year end', () => {
    expect(calendarMonth(at('2026-02-14T10:00:00Z'))).toEqual({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });
    expect(calendarMonth(at('2026-12-31T23:59:59Z'))).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(nextPeriod(calendarMonth(at('2026-12-05T00:00:00Z')), 'monthly').start).toBe(at('2027-01-01T00:00:00Z'));
    expect(addMonths(at('2026-03-16T08:00:00Z'), 12)).toBe(at('2027-03-16T08:00:00Z'));
    // A day the target month lacks is its last day: a leap day's year ends on Feb 28, not Mar 1.
    expect(addMonths(at('2028-02-29T10:00:00Z'), 12)).toBe(at('2029-02-28T10:00:00Z'));
    expect(addMonths(at('2028-02-29T10:00:00Z'), 48)).toBe(at('2032-02-29T10:00:00Z'));
    expect(addMonths(at('2027-01-31T23:59:59Z'), 1)).toBe(at('2027-02-28T23:59:59Z'));
    expect(addMonths(at('2027-12-31T00:00:00Z'), 2)).toBe(at('2028-02-29T00:00:00Z'));
  });

  it('prices plans per period in cents; free and bring-your-own-keys cost nothing', () => {
    expect(periodPriceCents('pro', 'monthly')).toBe(2900);
    expect(periodPriceCents('pro', 'yearly')).toBe(29900);
    expect(periodPriceCents('enterprise', 'monthly')).toBe(19900);
    expect(periodPriceCents('free', 'monthly')).toBe(0);
    expect(periodPriceCents('byo-keys', 'monthly')).toBe(0);
  });

  it('bills overage at $0.05 per 1K tokens on paid plans only', () => {
    expect(overage('pro', 1_200_000, 1_000_000)).toEqual({ tokens: 200_000, costCents: 1000, applies: true });
    expect(overage('pro', 900_000, 1_000_000)).toEqual({ tokens: 0, costCents: 0, applies: true });
    expect(overage('free', 50_000, 10_000)).toEqual({ tokens: 0, costCents: 0, applies: false });
    expect(overage('enterprise', 50_000_000, null)).toEqual({ tokens: 0, costCents: 0, applies: true });
    // Half a cent rounds up every time (700 tokens once gave 3, from 3.4999… in floating point); less rounds down.
    expect([90, 100, 110, 300, 500, 700, 900, 1_000, 1_099].map(overageCostCents)).toEqual([0, 1, 1, 2, 3, 4, 5, 5, 5]);
  });

  it('prorates an upgrade mid-month: credit for the unused old plan, charge for the rest of the new', () => {
    const now = at('2026-03-16T00:00:00Z');
    const month = calendarMonth(now);
    expect(remainingFraction(month, now)).toBeCloseTo(16 / 31);
    const fromFree = prorate({ plan: 'free', period: 'monthly', ...month }, 'pro', 'monthly', now);
    expect(fromFree).toMatchObject({ creditCents: 0, chargeCents: 1497, totalCents: 1497, prorated: true, newPeriod: month });
    const upgrade = prorate({ plan: 'pro', period: 'monthly', ...month }, 'enterprise', 'monthly', now);
    expect(upgrade).toMatchObject({ creditCents: 1497, chargeCents: 10271, totalCents: 8774, prorated: true });
    expect(upgrade.lines).toEqual([
      { description: 'Enterprise plan (monthly), Mar 16, 2026 to Mar 31, 2026, prorated', amountCents: 10271 },
      { description: 'Unused time on Pro plan (monthly)', amountCents: -1497 },
    ]);
    const downgrade = prorate({ plan: 'enterprise', period: 'monthly', ...month }, 'free', 'monthly', now);
    expect(downgrade).toMatchObject({ creditCents: 10271, chargeCents: 0, totalCents: -10271, prorated: true });
  });

  it('starts a new year when moving to yearly billing, and keeps the year when only the plan changes', () => {
    const now = at('2026-03-16T00:00:00Z');
    const toYearly = prorate({ plan: 'pro', period: 'monthly', ...calendarMonth(now) }, 'pro', 'yearly', now);
    expect(toYearly.newPeriod).toEqual({ start: now, end: at('2027-03-16T00:00:00Z') });
    // The unused month is credited, so the change as a whole is prorated.
    expect(toYearly).toMatchObject({ chargeCents: 29900, creditCents: 1497, prorated: true });
    // A year that starts now is charged in full: its line does not say "prorated".
    expect(toYearly.lines[0]).toEqual({ description: 'Pro plan (yearly), Mar 16, 2026 to Mar 15, 2027', amountCents: 29900 });
    // From Free there is nothing to credit: a whole year at its whole price is not prorated at all.
    const freeToYearly = prorate({ plan: 'free', period: 'monthly', ...calendarMonth(now) }, 'pro', 'yearly', now);
    expect(freeToYearly).toMatchObject({ chargeCents: 29900, creditCents: 0, totalCents: 29900, prorated: false });
    const year = { start: at('2026-01-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') };
    const within = prorate({ plan: 'pro', period: 'yearly', ...year }, 'enterprise', 'yearly', at('2026-07-02T12:00:00Z'));
    expect(within.newPeriod).toEqual(year);
    expect(within.creditCents).toBe(Math.round(29900 * 0.5));
    expect(within.chargeCents).toBe(Math.round(199900 * 0.5));
    expect(within.prorated).toBe(true);
    expect(within.lines[0]?.description).toBe('Enterprise plan (yearly), Jul 2, 2026 to Dec 31, 2026, prorated');
  });

  describe('the free trial', () => {
    const now = at('2026-03-16T00:00:00Z');
    const onFree = { plan: 'free' as const, period: 'monthly' as const, ...calendarMonth(now) };
    const trialEnd = at('2026-03-30T00:00:00Z');
    const inIt = { plan: 'pro' as const, period: 'monthly' as const, start: now, end: trialEnd };

    it('starts on the first move from an unpaid plan to a paid one, for the plan’s trial days, charging nothing', () => {
      const started = quotePlanChange(onFree, null, 'pro', 'monthly', now, 14);
      expect(started).toMatchObject({
        totalCents: 0,
        creditCents: 0,
        chargeCents: 0,
        prorated: false,
        trialEndsAt: trialEnd,
        trialMark: trialEnd,
      });
      expect(started.newPeriod).toEqual({ start: now, end: trialEnd });
      expect(started.lines).toEqual([{ description: 'Pro plan (monthly), free trial, Mar 16, 2026 to Mar 29, 2026', amountCents: 0 }]);
      const fromOwnKeys = quotePlanChange({ ...onFree, plan: 'byo-keys' }, null, 'enterprise', 'yearly', now, 14);
      expect(fromOwnKeys.trialEndsAt).toBe(trialEnd);
      // A plan with no trial days, or an account whose trial is spent, is billed at once.
      expect(quotePlanChange(onFree, null, 'pro', 'monthly', now, 0)).toMatchObject({ trialEndsAt: null, totalCents: 1497 });
      expect(quotePlanChange(onFree, now - 1, 'pro', 'monthly', now, 14)).toMatchObject({
        trialEndsAt: null,
        totalCents: 1497,
        trialMark: now - 1,
      });
      // A paid account with no mark (before trials existed, or moved to a paid plan outside Billing)
      // gets none: its change is billed, and marks the trial as had, so a later return from Free is billed too.
      const unmarked = quotePlanChange({ ...inIt, ...calendarMonth(now) }, null, 'free', 'monthly', now, 14);
      expect(unmarked).toMatchObject({ trialEndsAt: null, trialMark: now });
      expect(quotePlanChange({ ...inIt, ...calendarMonth(now) }, null, 'enterprise', 'monthly', now, 14).trialEndsAt).toBeNull();
    });

    it('is running only on a paid plan before its end', () => {
      expect(inTrial(inIt, trialEnd, trialEnd - 1)).toBe(true);
      expect(inTrial(inIt, trialEnd, trialEnd)).toBe(false);
      expect(inTrial(onFree, trialEnd, now)).toBe(false);
      expect(inTrial(inIt, null, now)).toBe(false);
    });

    it('within it a paid change keeps the trial and its period; leaving for an unpaid plan ends it, crediting nothing', () => {
      const later = at('2026-03-20T00:00:00Z');
      const kept = quotePlanChange(inIt, trialEnd, 'enterprise', 'yearly', later, 14);
      expect(kept).toMatchObject({ totalCents: 0, trialEndsAt: trialEnd, trialMark: trialEnd, newPeriod: { start: now, end: trialEnd } });
      const left = quotePlanChange(inIt, trialEnd, 'free', 'monthly', later, 14);
      expect(left).toMatchObject({ totalCents: 0, creditCents: 0, lines: [], trialEndsAt: null, trialMark: later });
      expect(left.newPeriod).toEqual(calendarMonth(later));
    });

    it('is followed by a first invoice: a monthly plan’s rest of the month it ends in, a yearly plan’s whole year', () => {
      expect(afterTrial('pro', 'monthly', trialEnd)).toMatchObject({
        chargeCents: 187,
        prorated: true,
        newPeriod: calendarMonth(trialEnd),
      });
      // Ending on the 1st, the month is whole: not prorated.
      expect(afterTrial('pro', 'monthly', at('2026-04-01T00:00:00Z'))).toMatchObject({ chargeCents: 2900, prorated: false });
      const yearly = afterTrial('enterprise', 'yearly', trialEnd);
      expect(yearly).toMatchObject({ chargeCents: 199_900, newPeriod: { start: trialEnd, end: at('2027-03-30T00:00:00Z') } });
    });
  });
});
