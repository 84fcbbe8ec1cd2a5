import type { BillingOverview, ChangePlanInput, ChangePlanResult, InvoiceList, ProrationPreview } from '@conductor/shared/schemas/billing';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '~/lib/api-client';
import { loadSession } from '~/lib/auth';

export const billingKeys = {
  all: ['billing'] as const,
  overview: () => [...billingKeys.all, 'overview'] as const,
  invoices: () => [...billingKeys.all, 'invoices'] as const,
};

export const billingQuery = () =>
  queryOptions({ queryKey: billingKeys.overview(), queryFn: ({ signal }) => api.get<BillingOverview>('/billing', { signal }) });

export const invoicesQuery = () =>
  queryOptions({ queryKey: billingKeys.invoices(), queryFn: ({ signal }) => api.get<InvoiceList>('/billing/invoices', { signal }) });

export const invoiceDownloadUrl = (id: string) => `/api/v1/billing/invoices/${encodeURIComponent(id)}/download`;

export const previewPlanChange = (input: ChangePlanInput) => api.post<ProrationPreview>('/billing/preview', input);

/** After a billing change the plan (and so the limits everywhere) may differ: refresh billing, usage and the session user. */
function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: billingKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['usage'] }),
      loadSession({ force: true }),
    ]);
  };
}

export function useChangePlan() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (input: ChangePlanInput) => api.post<ChangePlanResult>('/billing/change-plan', input),
    onSuccess: refresh,
  });
}

export function useCancelSubscription() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: () => api.post<BillingOverview>('/billing/cancel'), onSuccess: refresh });
}

export function useResumeSubscription() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: () => api.post<BillingOverview>('/billing/resume'), onSuccess: refresh });
}
