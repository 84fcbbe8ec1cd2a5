import { TIMEOUTS_MS } from '@conductor/shared';
import type { StatusResponse } from '@conductor/shared/schemas/status';
import { publicApi } from '~/lib/api-client';
import type { PublicQueryOptions } from '~/lib/public-query';

/** `GET /v1/status` for the status page, refreshed every 60 s (one retry, as the app's query client). */
export const statusQueryOptions = (): PublicQueryOptions<StatusResponse> => ({
  key: 'public/status',
  fetch: () => publicApi.get<StatusResponse>('/status', { background: true }),
  refetchInterval: TIMEOUTS_MS.healthRefresh,
  staleTime: 0,
  retry: 1,
});
