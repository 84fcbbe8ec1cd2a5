import { PLANS, YEARLY_SAVING_LABEL } from '@conductor/shared';
import type { PlansResponse } from '@conductor/shared/schemas/plans';
import { queryOptions } from '@tanstack/react-query';
import { publicApi } from '~/lib/api-client';

/** The shared constant, which is also what the endpoint serves: the prerendered page shows it before the fetch. */
export const PLANS_PLACEHOLDER: PlansResponse = { currency: 'USD', yearlySavingLabel: YEARLY_SAVING_LABEL, plans: [...PLANS] };

export const plansQueryOptions = () =>
  queryOptions({
    queryKey: ['public', 'plans'],
    queryFn: ({ signal }) => publicApi.get<PlansResponse>('/observability/billing/plans', { signal }),
    placeholderData: PLANS_PLACEHOLDER,
  });
