import { z } from 'zod';
import { USER_PLANS } from '../constants/plans.ts';

/** The usage page's ranges; the overview offers 7d, 30d and 90d ('3 months'). */
export const USAGE_RANGES = ['24h', '7d', '30d', '90d'] as const;
export const UsageRange = z.enum(USAGE_RANGES);
export type UsageRange = z.infer<typeof UsageRange>;

export const UsageRangeQuery = z.object({ range: UsageRange.default('7d') }).strict();

const Count = z.number().int().nonnegative();

/** `GET /api/v1/observability/usage/current`: this month's quota, today's requests, this month's cost. */
export const UsageCurrent = z.object({
  plan: z.enum(USER_PLANS),
  /** Live tokens this calendar month (UTC) that count against the quota: those served on the server's keys. */
  tokensUsed: Count,
  /** Live tokens this month served on the account's own provider keys: metered, outside the quota and overage. */
  ownKeyTokens: Count,
  /** Tokens this month on test keys (the sandbox): shown, never counted against the quota or billed. */
  testTokens: Count,
  /** Monthly token quota; null = no quota (Enterprise, bring your own keys). */
  tokensLimit: Count.nullable(),
  requestsToday: Count,
  /** The plan's rate limit, per minute (decisions §3). */
  requestsLimitPerMinute: Count,
  /** Computed cost of this month's requests, USD micro-units. */
  costThisMonthMicros: Count,
  monthStart: z.string(),
});
export type UsageCurrent = z.infer<typeof UsageCurrent>;

export const UsageSummary = z.object({
  requests: Count,
  errors: Count,
  promptTokens: Count,
  completionTokens: Count,
  totalTokens: Count,
  costMicros: Count,
  /** null when there were no requests. */
  avgLatencyMs: z.number().nonnegative().nullable(),
  successRate: z.number().min(0).max(1).nullable(),
});
export type UsageSummary = z.infer<typeof UsageSummary>;

export const UsagePoint = z.object({
  /** ISO start of the bucket: an hour for 24h, a UTC day otherwise. */
  bucket: z.string(),
  requests: Count,
  errors: Count,
  tokens: Count,
  costMicros: Count,
});
export type UsagePoint = z.infer<typeof UsagePoint>;

export const ModelUsage = z.object({
  model: z.string(),
  provider: z.string(),
  requests: Count,
  tokens: Count,
  costMicros: Count,
  previousTokens: Count,
  /** Token change vs the previous period, in percent; null when the model had no previous usage. */
  trendPercent: z.number().nullable(),
});
export type ModelUsage = z.infer<typeof ModelUsage>;

/** `GET /api/v1/observability/metrics?range=`: totals, previous period, time series and by-model breakdown. */
export const UsageMetrics = z.object({
  range: UsageRange,
  granularity: z.enum(['hour', 'day']),
  from: z.string(),
  to: z.string(),
  summary: UsageSummary,
  previous: UsageSummary,
  series: z.array(UsagePoint),
  byModel: z.array(ModelUsage),
});
export type UsageMetrics = z.infer<typeof UsageMetrics>;

export const ActivityQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(5) }).strict();

export const ActivityItem = z.object({
  id: z.string(),
  requestId: z.string(),
  model: z.string(),
  provider: z.string(),
  environment: z.enum(['live', 'test']),
  status: z.enum(['success', 'error']),
  statusCode: z.number().int(),
  errorType: z.string().nullable(),
  totalTokens: Count,
  latencyMs: Count,
  costMicros: Count,
  apiKeyName: z.string().nullable(),
  createdAt: z.string(),
});
export type ActivityItem = z.infer<typeof ActivityItem>;

export const ActivityList = z.object({ items: z.array(ActivityItem) });
export type ActivityList = z.infer<typeof ActivityList>;

/** USD micro-units → dollars. */
export const microsToUsd = (micros: number) => micros / 1_000_000;
