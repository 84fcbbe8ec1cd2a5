/** The plans' ids, apart from their pricing (`plans.ts`), for code that only needs to know one. */
export const PLAN_IDS = ['free', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
