import type { ComponentStatus } from '@conductor/shared';
import type { StatusDay } from '@conductor/shared/schemas/status';
import type { DailyCount } from './status.repository.ts';

const DAY_MS = 86_400_000;

export const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);
export const startOfUtcDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

/** The last `days` UTC days, oldest first, ending with today. */
export function dayRange(now: number, days: number): string[] {
  const today = startOfUtcDay(now);
  return Array.from({ length: days }, (_, index) => utcDay(today - (days - 1 - index) * DAY_MS));
}

/**
 * One bar per day: the worst state any check saw that day (a problem seen is a problem
 * shown) and the share of checks that were not an outage; plus the uptime of the window.
 */
export function componentHistory(
  component: string,
  days: readonly string[],
  counts: readonly DailyCount[],
): { days: StatusDay[]; uptimePercent: number | null } {
  const byDay = new Map<string, Record<ComponentStatus, number>>();
  for (const row of counts) {
    if (row.component !== component) continue;
    const tally = byDay.get(row.day) ?? { operational: 0, degraded: 0, outage: 0 };
    tally[row.status] += row.checks;
    byDay.set(row.day, tally);
  }
  let windowChecks = 0;
  let windowOutages = 0;
  const history = days.map((date): StatusDay => {
    const tally = byDay.get(date);
    const checks = tally ? tally.operational + tally.degraded + tally.outage : 0;
    if (!tally || checks === 0) return { date, status: null, uptimePercent: null, checks: 0 };
    windowChecks += checks;
    windowOutages += tally.outage;
    const status: ComponentStatus = tally.outage > 0 ? 'outage' : tally.degraded > 0 ? 'degraded' : 'operational';
    return { date, status, uptimePercent: uptimeShare(checks - tally.outage, checks), checks };
  });
  return { days: history, uptimePercent: windowChecks === 0 ? null : uptimeShare(windowChecks - windowOutages, windowChecks) };
}

/** Percent with two decimals, rounded down so a partial outage never shows as 100. */
function uptimeShare(up: number, total: number): number {
  return Math.floor((up * 10_000) / total) / 100;
}
