import { z } from 'zod';
import { ComponentStatus } from './health.ts';

export { STATUS_HISTORY_DAYS } from '../constants/limits.ts';

export const StatusDay = z.object({
  /** UTC calendar day, `YYYY-MM-DD`. */
  date: z.string(),
  /** Worst state seen that day; null when no check ran. */
  status: ComponentStatus.nullable(),
  /** Share of checks that were not an outage, in percent; null when no check ran. */
  uptimePercent: z.number().min(0).max(100).nullable(),
  checks: z.number().int().nonnegative(),
});
export type StatusDay = z.infer<typeof StatusDay>;

export const StatusComponent = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  group: z.enum(['platform', 'provider']),
  status: ComponentStatus,
  /** Latency of the latest check in milliseconds, when it measures one. */
  latencyMs: z.number().int().nonnegative().nullable(),
  /** Uptime over the whole history window; null before the first recorded check. */
  uptimePercent: z.number().min(0).max(100).nullable(),
  history: z.array(StatusDay),
});
export type StatusComponent = z.infer<typeof StatusComponent>;

/** `GET /v1/status`: live state of every component and its daily uptime history. */
export const StatusResponse = z.object({
  status: ComponentStatus,
  checkedAt: z.string(),
  historyDays: z.number().int().positive(),
  components: z.array(StatusComponent),
});
export type StatusResponse = z.infer<typeof StatusResponse>;
