import { PLAN_IDS, type PlanId } from '@conductor/shared/constants/plan-ids';
import type { BillingPeriod } from '@conductor/shared/schemas/billing';

const BILLING_PATH = '/dashboard/billing';

/** Billing, asked to open its plan change on a plan and period (the pricing page's buttons lead here). */
export function planChangePath(plan: PlanId, period: BillingPeriod): string {
  return `${BILLING_PATH}?plan=${plan}&period=${period}`;
}

/** A plan change asked for in the address (`?plan=pro&period=yearly`, see `planChangePath`): valid, or null. */
export function requestedChange(query: URLSearchParams, current: BillingPeriod): { plan: PlanId; period: BillingPeriod } | null {
  const plan = PLAN_IDS.find((id) => id === query.get('plan'));
  if (!plan) return null;
  const period = query.get('period');
  return { plan, period: period === 'monthly' || period === 'yearly' ? period : current };
}

/** The paid plan and period a `next` page asks Billing to change to (a plan chosen on the pricing page), if it does. */
export function chosenPlan(next: string | null): { plan: PlanId; period: BillingPeriod } | null {
  if (!next?.startsWith(`${BILLING_PATH}?`)) return null;
  const change = requestedChange(new URLSearchParams(next.slice(BILLING_PATH.length)), 'monthly');
  return change && change.plan !== 'free' ? change : null;
}
