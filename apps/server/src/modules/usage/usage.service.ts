import { DEMO_OTHER_VISITOR_KEY } from '@conductor/shared/constants/demo-account';
import { limitsForPlan } from '@conductor/shared';
import type {
  ActivityItem,
  ModelUsage,
  UsageCurrent,
  UsageMetrics,
  UsagePoint,
  UsageRange,
  UsageSummary,
} from '@conductor/shared/schemas/usage';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../users/users.repository.ts';
import { dayKey, rangeWindow } from './usage-range.ts';
import { dailyCells, hourlyCells, liveTokensByMonth, monthTotals, recentEvents, type UsageCell } from './usage.repository.ts';

export function monthStartOf(now: number): string {
  return `${dayKey(now).slice(0, 7)}-01`;
}

/** This month's quota use and cost, today's requests and the plan's limits. */
export async function currentUsage(db: Database, user: Pick<UserRow, 'id' | 'plan'>, now: number): Promise<UsageCurrent> {
  const monthStart = monthStartOf(now);
  const totals = await monthTotals(db, user.id, monthStart, dayKey(now));
  const limits = limitsForPlan(user.plan);
  return {
    plan: user.plan,
    tokensUsed: totals.liveTokens,
    ownKeyTokens: totals.ownKeyTokens,
    testTokens: totals.testTokens,
    tokensLimit: limits.tokensPerMonth,
    requestsToday: totals.requestsToday,
    requestsLimitPerMinute: limits.requestsPerMinute,
    costThisMonthMicros: totals.costMicros,
    monthStart,
  };
}

/** Live quota tokens used in the UTC days from … to (inclusive), per calendar month (`YYYY-MM`). */
export function liveTokensPerMonth(db: Database, userId: string, fromDay: string, toDay: string): Promise<Map<string, number>> {
  return liveTokensByMonth(db, userId, fromDay, toDay);
}

const EMPTY_SUMMARY_TOTALS = { requests: 0, errors: 0, promptTokens: 0, completionTokens: 0, costMicros: 0, latencyMsSum: 0 };
type Totals = typeof EMPTY_SUMMARY_TOTALS;

function add(target: Totals, cell: UsageCell): void {
  target.requests += cell.requests;
  target.errors += cell.errors;
  target.promptTokens += cell.promptTokens;
  target.completionTokens += cell.completionTokens;
  target.costMicros += cell.costMicros;
  target.latencyMsSum += cell.latencyMsSum;
}

function toSummary(totals: Totals): UsageSummary {
  return {
    requests: totals.requests,
    errors: totals.errors,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    totalTokens: totals.promptTokens + totals.completionTokens,
    costMicros: totals.costMicros,
    avgLatencyMs: totals.requests > 0 ? Math.round(totals.latencyMsSum / totals.requests) : null,
    successRate: totals.requests > 0 ? (totals.requests - totals.errors) / totals.requests : null,
  };
}

/** Folds day or hour × model cells into the range's totals, previous-period totals, series and by-model table. */
export function summariseCells(range: UsageRange, now: number, cells: UsageCell[]): UsageMetrics {
  const window = rangeWindow(range, now);
  const current = { ...EMPTY_SUMMARY_TOTALS };
  const previous = { ...EMPTY_SUMMARY_TOTALS };
  const series = new Map<string, UsagePoint>(
    window.buckets.map((bucket) => [bucket, { bucket, requests: 0, errors: 0, tokens: 0, costMicros: 0 }]),
  );
  const models = new Map<string, ModelUsage>();
  for (const cell of cells) {
    const modelKey = `${cell.provider}\u0000${cell.model}`;
    const model = models.get(modelKey) ?? {
      model: cell.model,
      provider: cell.provider,
      requests: 0,
      tokens: 0,
      costMicros: 0,
      previousTokens: 0,
      trendPercent: null,
    };
    const tokens = cell.promptTokens + cell.completionTokens;
    if (cell.bucket >= window.current.from && cell.bucket <= window.current.to) {
      add(current, cell);
      model.requests += cell.requests;
      model.tokens += tokens;
      model.costMicros += cell.costMicros;
      const point = series.get(cell.bucket);
      if (point) {
        point.requests += cell.requests;
        point.errors += cell.errors;
        point.tokens += tokens;
        point.costMicros += cell.costMicros;
      }
    } else if (cell.bucket >= window.previous.from && cell.bucket <= window.previous.to) {
      add(previous, cell);
      model.previousTokens += tokens;
    }
    models.set(modelKey, model);
  }
  // The current period ends now, part way through its last day (or hour); the previous one is
  // whole. The trend compares like with like: the previous period's tokens at the pace of the
  // share of it the current one has had so far (steady traffic reads 0%, not up to -1/days).
  const elapsed = Math.min(1, (now - window.currentStart.getTime()) / (window.currentStart.getTime() - window.previousStart.getTime()));
  const byModel = [...models.values()]
    .filter((model) => model.requests > 0)
    .map((model) => {
      const expected = model.previousTokens * elapsed;
      return { ...model, trendPercent: expected > 0 ? Math.round(((model.tokens - expected) / expected) * 1000) / 10 : null };
    })
    .sort((a, b) => b.tokens - a.tokens || a.model.localeCompare(b.model));
  return {
    range,
    granularity: window.granularity,
    from: window.currentStart.toISOString(),
    to: window.end.toISOString(),
    summary: toSummary(current),
    previous: toSummary(previous),
    series: [...series.values()],
    byModel,
  };
}

/** Metrics for a range and the period before it: the rollup for day ranges, raw events for 24h. */
export async function usageMetrics(db: Database, userId: string, range: UsageRange, now: number): Promise<UsageMetrics> {
  const window = rangeWindow(range, now);
  const cells =
    window.granularity === 'hour'
      ? await hourlyCells(db, userId, window.previousStart, window.end)
      : await dailyCells(db, userId, window.previous.from, window.current.to);
  return summariseCells(range, now, cells);
}

/**
 * The latest requests. On the shared demo account (`demoSession`: the caller's session), the key
 * of a request another visitor sent is not named: its name is theirs (ADR 0009).
 */
export async function recentActivity(db: Database, userId: string, limit: number, demoSession?: string): Promise<ActivityItem[]> {
  const rows = await recentEvents(db, userId, limit);
  const keyName = (row: (typeof rows)[number]) =>
    demoSession === undefined || row.apiKeySession === null || row.apiKeySession === demoSession ? row.apiKeyName : DEMO_OTHER_VISITOR_KEY;
  return rows.map((row) => ({
    id: row.requestId,
    requestId: row.requestId,
    model: row.model,
    provider: row.provider,
    environment: row.environment,
    status: row.statusCode >= 400 ? 'error' : 'success',
    statusCode: row.statusCode,
    errorType: row.errorType,
    totalTokens: row.promptTokens + row.completionTokens,
    latencyMs: row.latencyMs,
    costMicros: row.costMicros,
    apiKeyName: keyName(row),
    createdAt: row.createdAt.toISOString(),
  }));
}

const CSV_HEADER = [
  'period_start',
  'model',
  'provider',
  'requests',
  'errors',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cost_usd',
  'avg_latency_ms',
];

function csvField(value: string | number): string {
  const text = String(value);
  // Quote when needed, and neutralise spreadsheet formulas in free text.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The range as CSV: one row per time bucket and model, oldest first. */
export async function usageCsv(db: Database, userId: string, range: UsageRange, now: number): Promise<string> {
  const window = rangeWindow(range, now);
  const cells =
    window.granularity === 'hour'
      ? await hourlyCells(db, userId, window.currentStart, window.end)
      : await dailyCells(db, userId, window.current.from, window.current.to);
  const rows = cells
    .filter((cell) => cell.bucket >= window.current.from && cell.bucket <= window.current.to)
    .sort((a, b) => a.bucket.localeCompare(b.bucket) || a.model.localeCompare(b.model))
    .map((cell) =>
      [
        cell.bucket,
        cell.model,
        cell.provider,
        cell.requests,
        cell.errors,
        cell.promptTokens,
        cell.completionTokens,
        cell.promptTokens + cell.completionTokens,
        (cell.costMicros / 1_000_000).toFixed(6),
        cell.requests > 0 ? Math.round(cell.latencyMsSum / cell.requests) : 0,
      ]
        .map(csvField)
        .join(','),
    );
  return `${[CSV_HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}
