import { describe, expect, it } from 'vitest';
import { PLANS } from './plans.ts';

describe('plans', () => {
  it('gives every paid plan one trial length, which Billing names before a plan is chosen', () => {
    const paid = PLANS.filter((plan) => plan.price.monthly > 0);
    expect(paid.map((plan) => plan.id)).toEqual(['pro', 'enterprise']);
    expect(new Set(paid.map((plan) => plan.trialDays))).toEqual(new Set([14]));
  });
});
