import { z } from 'zod';
import { PLAN_IDS } from '../constants/plans.ts';

/** One plan as `GET /v1/observability/billing/plans` returns it (the shared `PLANS` constant). */
export const PlanSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  description: z.string(),
  price: z.object({ monthly: z.number().nonnegative(), yearly: z.number().nonnegative() }),
  tokensPerMonth: z.number().int().positive().nullable(),
  requestsPerMinute: z.number().int().positive(),
  concurrentSessions: z.number().int().positive(),
  features: z.array(z.string()),
  limitations: z.array(z.string()).optional(),
  cta: z.string(),
  popular: z.boolean(),
  trialDays: z.number().int().nonnegative(),
});

export const PlansResponse = z.object({
  currency: z.literal('USD'),
  /** Label shown beside the yearly option ('Save 17%'). */
  yearlySavingLabel: z.string(),
  plans: z.array(PlanSchema),
});
export type PlansResponse = z.infer<typeof PlansResponse>;
