import { z } from 'zod';

export const ComponentStatus = z.enum(['operational', 'degraded', 'outage']);
export type ComponentStatus = z.infer<typeof ComponentStatus>;

/** `GET /v1/health`: the spec reads `status` and `providers.available`. */
export const HealthResponse = z.object({
  status: ComponentStatus,
  version: z.string(),
  uptimeSeconds: z.number().int().nonnegative(),
  checks: z.object({
    database: ComponentStatus,
    gateway: ComponentStatus,
    /** Only when the server uses Redis: `degraded` while it does not answer (limits count in each instance meanwhile). */
    redis: ComponentStatus.optional(),
  }),
  providers: z.object({
    available: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    configured: z.array(z.string()),
  }),
  timestamp: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
