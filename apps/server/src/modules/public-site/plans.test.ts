import { monthlyDisplayPrice, PLANS, YEARLY_SAVING_LABEL } from '@conductor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => harness.close());

describe('GET /v1/observability/billing/plans', () => {
  it('answers the shared plan constant, the same data the pricing page renders', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/v1/observability/billing/plans' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ currency: 'USD', yearlySavingLabel: YEARLY_SAVING_LABEL, plans: JSON.parse(JSON.stringify(PLANS)) });
    const byId = Object.fromEntries(body.plans.map((plan: (typeof PLANS)[number]) => [plan.id, plan]));
    expect(byId.pro.price).toEqual({ monthly: 29, yearly: 299 });
    expect(byId.enterprise.price).toEqual({ monthly: 199, yearly: 1999 });
    expect(monthlyDisplayPrice(byId.pro, 'yearly')).toBe(24);
    expect(monthlyDisplayPrice(byId.enterprise, 'yearly')).toBe(166);
    expect(byId.pro.popular).toBe(true);
  });
});
