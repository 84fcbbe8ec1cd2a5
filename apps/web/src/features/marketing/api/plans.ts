import { PLANS, YEARLY_SAVING_LABEL } from '@conductor/shared';
import type { PlansResponse } from '@conductor/shared/schemas/plans';
import { publicApi } from '~/lib/api-client';
import type { PublicQueryOptions } from '~/lib/public-query';

/** The shared constant, which is also what the endpoint serves: the prerendered page shows it before the fetch. */
export const PLANS_PLACEHOLDER: PlansResponse = { currency: 'USD', yearlySavingLabel: YEARLY_SAVING_LABEL, plans: [...PLANS] };

export const plansQueryOptions = (): PublicQueryOptions<PlansResponse> => ({
  key: 'public/plans',
  fetch: () => publicApi.get<PlansResponse>('/observability/billing/plans'),
  staleTime: 5 * 60 * 1000,
});
