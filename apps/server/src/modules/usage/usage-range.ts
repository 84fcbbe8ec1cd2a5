import type { UsageRange } from '@conductor/shared/schemas/usage';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const RANGE_DAYS: Record<Exclude<UsageRange, '24h'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

export interface RangeWindow {
  granularity: 'hour' | 'day';
  /** Bucket keys of the current window, oldest first (ISO hours or YYYY-MM-DD days). */
  buckets: string[];
  /** Inclusive first and last bucket of the current and the previous window. */
  current: { from: string; to: string };
  previous: { from: string; to: string };
  /** Instants bounding both windows: [previousStart, end). */
  previousStart: Date;
  currentStart: Date;
  end: Date;
}

export const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const hourKey = (ms: number) => `${new Date(ms).toISOString().slice(0, 13)}:00:00.000Z`;

/**
 * A range as UTC buckets: 24h is the current hour and the 23 before it (from raw events),
 * Nd is today and the N−1 days before it (from the daily rollup). The previous window is
 * the same length, immediately before.
 */
export function rangeWindow(range: UsageRange, now: number): RangeWindow {
  if (range === '24h') {
    const currentHour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const currentStart = currentHour - 23 * HOUR_MS;
    const previousStart = currentStart - 24 * HOUR_MS;
    const buckets = Array.from({ length: 24 }, (_, index) => hourKey(currentStart + index * HOUR_MS));
    return {
      granularity: 'hour',
      buckets,
      current: { from: hourKey(currentStart), to: hourKey(currentHour) },
      previous: { from: hourKey(previousStart), to: hourKey(currentStart - HOUR_MS) },
      previousStart: new Date(previousStart),
      currentStart: new Date(currentStart),
      end: new Date(currentHour + HOUR_MS),
    };
  }
  const days = RANGE_DAYS[range];
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const currentStart = today - (days - 1) * DAY_MS;
  const previousStart = currentStart - days * DAY_MS;
  const buckets = Array.from({ length: days }, (_, index) => dayKey(currentStart + index * DAY_MS));
  return {
    granularity: 'day',
    buckets,
    current: { from: dayKey(currentStart), to: dayKey(today) },
    previous: { from: dayKey(previousStart), to: dayKey(currentStart - DAY_MS) },
    previousStart: new Date(previousStart),
    currentStart: new Date(currentStart),
    end: new Date(today + DAY_MS),
  };
}
