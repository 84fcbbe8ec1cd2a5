import { TIMEOUTS_MS } from '@conductor/shared';
import type { StatusResponse } from '@conductor/shared/schemas/status';
import { queryOptions } from '@tanstack/react-query';
import { publicApi } from '~/lib/api-client';

/** `GET /v1/status` for the status page, refreshed every 60 s. */
export const statusQueryOptions = () =>
  queryOptions({
    queryKey: ['public', 'status'],
    queryFn: ({ signal }) => publicApi.get<StatusResponse>('/status', { signal }),
    refetchInterval: TIMEOUTS_MS.healthRefresh,
    staleTime: 0,
  });
