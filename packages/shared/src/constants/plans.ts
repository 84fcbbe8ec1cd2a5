/** Plans: one source for the pricing page, `GET /v1/observability/billing/plans` and billing. */
import type { PlanId } from './plan-ids.ts';

export { PLAN_IDS, type PlanId } from './plan-ids.ts';
export const USER_PLANS = ['free', 'pro', 'enterprise', 'byo-keys'] as const;
export type UserPlan = (typeof USER_PLANS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  description: string;
  price: { monthly: number; yearly: number };
  /** Monthly token quota; null means unlimited. */
  tokensPerMonth: number | null;
  requestsPerMinute: number;
  concurrentSessions: number;
  features: string[];
  limitations?: string[];
  cta: string;
  popular: boolean;
  trialDays: number;
}

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    description: 'Free forever. Everything you need to try Conductor on a side project.',
    price: { monthly: 0, yearly: 0 },
    tokensPerMonth: 10_000,
    requestsPerMinute: 10,
    concurrentSessions: 1,
    features: ['10,000 tokens/month', '10 requests/min', '1 concurrent session', 'OpenAI-compatible API', 'Community support'],
    limitations: ['No custom routing profiles', 'No audit logs', 'Throttled when over the limit'],
    cta: 'Start Free Trial',
    popular: false,
    trialDays: 14,
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'For teams shipping AI features to production.',
    price: { monthly: 29, yearly: 299 },
    tokensPerMonth: 1_000_000,
    requestsPerMinute: 100,
    concurrentSessions: 5,
    features: ['1M tokens/month', '100 requests/min', '5 concurrent sessions', 'Custom profiles', 'Audit logs', 'Priority support'],
    cta: 'Start Free Trial',
    popular: true,
    trialDays: 14,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'For organisations with scale, security and compliance needs.',
    price: { monthly: 199, yearly: 1999 },
    tokensPerMonth: null,
    requestsPerMinute: 1_000,
    concurrentSessions: 50,
    features: ['Unlimited tokens', '1,000 requests/min', '50 concurrent sessions', 'SSO', 'SLA', 'Dedicated support'],
    cta: 'Contact Sales',
    popular: false,
    trialDays: 14,
  },
];

export const YEARLY_SAVING_LABEL = 'Save 17%';

export function planById(id: PlanId): Plan {
  const plan = PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** The bring-your-own-keys plan's name (it has no pricing card of its own). */
export const BYO_KEYS_PLAN_NAME = 'Bring Your Own Keys';

/** A plan's name as invoices and limit messages say it: the pricing card's, or bring-your-own-keys'. */
export function planName(plan: UserPlan): string {
  return plan === 'byo-keys' ? BYO_KEYS_PLAN_NAME : planById(plan).name;
}

/** The yearly display is the yearly price divided by 12, rounded down. */
export function monthlyDisplayPrice(plan: Plan, period: 'monthly' | 'yearly'): number {
  return period === 'monthly' ? plan.price.monthly : Math.floor(plan.price.yearly / 12);
}

/** Limits that apply to an account's plan; byo-keys has no quota and the Pro rate. */
export function limitsForPlan(plan: UserPlan): { tokensPerMonth: number | null; requestsPerMinute: number } {
  if (plan === 'byo-keys') return { tokensPerMonth: null, requestsPerMinute: planById('pro').requestsPerMinute };
  const { tokensPerMonth, requestsPerMinute } = planById(plan);
  return { tokensPerMonth, requestsPerMinute };
}
