import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys, usageDaily, usageEvents } from '../../db/schema/index.ts';

/** One aggregated cell: a time bucket (day or hour) × model. */
export interface UsageCell {
  bucket: string;
  model: string;
  provider: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  costMicros: number;
  latencyMsSum: number;
}

const toCell = (row: Record<string, unknown>): UsageCell => ({
  bucket: String(row.bucket),
  model: String(row.model),
  provider: String(row.provider),
  requests: Number(row.requests),
  errors: Number(row.errors),
  promptTokens: Number(row.promptTokens),
  completionTokens: Number(row.completionTokens),
  costMicros: Number(row.costMicros),
  latencyMsSum: Number(row.latencyMsSum),
});

/** Day × model cells from the daily rollup, for UTC days `fromDay` … `toDay` inclusive. */
export async function dailyCells(db: Database, userId: string, fromDay: string, toDay: string): Promise<UsageCell[]> {
  const rows = await db
    .select({
      bucket: usageDaily.day,
      model: usageDaily.model,
      provider: usageDaily.provider,
      requests: sql<string>`sum(${usageDaily.requests})`,
      errors: sql<string>`sum(${usageDaily.errors})`,
      promptTokens: sql<string>`sum(${usageDaily.promptTokens})`,
      completionTokens: sql<string>`sum(${usageDaily.completionTokens})`,
      costMicros: sql<string>`sum(${usageDaily.costMicros})`,
      latencyMsSum: sql<string>`sum(${usageDaily.latencyMsSum})`,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, fromDay), sql`${usageDaily.day} <= ${toDay}`))
    .groupBy(usageDaily.day, usageDaily.model, usageDaily.provider);
  return rows.map(toCell);
}

/** Hour × model cells from raw events in [from, to): the 24-hour view needs finer buckets than the rollup. */
export async function hourlyCells(db: Database, userId: string, from: Date, to: Date): Promise<UsageCell[]> {
  const hour = sql<string>`to_char(date_trunc('hour', ${usageEvents.createdAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24":00:00.000Z"')`;
  const rows = await db
    .select({
      bucket: hour,
      model: usageEvents.model,
      provider: usageEvents.provider,
      requests: sql<string>`count(*)`,
      errors: sql<string>`count(*) filter (where ${usageEvents.statusCode} >= 400)`,
      promptTokens: sql<string>`sum(${usageEvents.promptTokens})`,
      completionTokens: sql<string>`sum(${usageEvents.completionTokens})`,
      costMicros: sql<string>`sum(${usageEvents.costMicros})`,
      latencyMsSum: sql<string>`sum(${usageEvents.latencyMs})`,
    })
    .from(usageEvents)
    .where(and(eq(usageEvents.userId, userId), gte(usageEvents.createdAt, from), lt(usageEvents.createdAt, to)))
    .groupBy(hour, usageEvents.model, usageEvents.provider);
  return rows.map(toCell);
}

/**
 * A rollup row's tokens that count against the plan's quota (and are billed as overage): those
 * served on the server's keys. Tokens on the account's own provider keys are metered and shown,
 * but the provider bills the account for them (decisions §3). Sum it over live rows only.
 */
export const QUOTA_TOKENS = sql`${usageDaily.promptTokens} + ${usageDaily.completionTokens} - ${usageDaily.ownKeyTokens}`;

/** Quota tokens and own-key tokens (live only), test-key tokens and cost since `monthStart`, and all requests on `today`. */
export async function monthTotals(
  db: Database,
  userId: string,
  monthStart: string,
  today: string,
): Promise<{ liveTokens: number; ownKeyTokens: number; testTokens: number; costMicros: number; requestsToday: number }> {
  const [row] = await db
    .select({
      liveTokens: sql<string>`coalesce(sum(${QUOTA_TOKENS}) filter (where ${usageDaily.environment} = 'live'), 0)`,
      ownKeyTokens: sql<string>`coalesce(sum(${usageDaily.ownKeyTokens}) filter (where ${usageDaily.environment} = 'live'), 0)`,
      testTokens: sql<string>`coalesce(sum(${usageDaily.promptTokens} + ${usageDaily.completionTokens}) filter (where ${usageDaily.environment} = 'test'), 0)`,
      costMicros: sql<string>`coalesce(sum(${usageDaily.costMicros}), 0)`,
      requestsToday: sql<string>`coalesce(sum(${usageDaily.requests}) filter (where ${usageDaily.day} = ${today}), 0)`,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, monthStart)));
  return {
    liveTokens: Number(row?.liveTokens ?? 0),
    ownKeyTokens: Number(row?.ownKeyTokens ?? 0),
    testTokens: Number(row?.testTokens ?? 0),
    costMicros: Number(row?.costMicros ?? 0),
    requestsToday: Number(row?.requestsToday ?? 0),
  };
}

/** Live quota tokens per calendar month (`YYYY-MM`) for the UTC days `fromDay` … `toDay` inclusive, in one query. */
export async function liveTokensByMonth(db: Database, userId: string, fromDay: string, toDay: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ month: sql<string>`to_char(${usageDaily.day}, 'YYYY-MM')`, tokens: sql<string>`coalesce(sum(${QUOTA_TOKENS}), 0)` })
    .from(usageDaily)
    .where(
      and(
        eq(usageDaily.userId, userId),
        eq(usageDaily.environment, 'live'),
        gte(usageDaily.day, fromDay),
        sql`${usageDaily.day} <= ${toDay}`,
      ),
    )
    .groupBy(sql`1`);
  return new Map(rows.map((row) => [row.month, Number(row.tokens)]));
}

export async function recentEvents(db: Database, userId: string, limit: number) {
  return db
    .select({
      requestId: usageEvents.requestId,
      model: usageEvents.model,
      provider: usageEvents.provider,
      environment: usageEvents.environment,
      statusCode: usageEvents.statusCode,
      errorType: usageEvents.errorType,
      promptTokens: usageEvents.promptTokens,
      completionTokens: usageEvents.completionTokens,
      latencyMs: usageEvents.latencyMs,
      costMicros: usageEvents.costMicros,
      createdAt: usageEvents.createdAt,
      apiKeyName: apiKeys.name,
      apiKeySession: apiKeys.createdSession,
    })
    .from(usageEvents)
    .leftJoin(apiKeys, eq(apiKeys.id, usageEvents.apiKeyId))
    .where(eq(usageEvents.userId, userId))
    .orderBy(desc(usageEvents.createdAt), desc(usageEvents.requestId))
    .limit(limit);
}
