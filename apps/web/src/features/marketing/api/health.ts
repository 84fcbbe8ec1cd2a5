import { type HealthResponse, TIMEOUTS_MS } from '@conductor/shared';
import { publicApi } from '~/lib/api-client';
import type { PublicQueryOptions } from '~/lib/public-query';

/** `GET /v1/health` for the coming-soon badge, refreshed every 60 s; a failure is retried once, as the spec's data reads are. */
export const healthQueryOptions = (): PublicQueryOptions<HealthResponse> => ({
  key: 'public/health',
  fetch: () => publicApi.get<HealthResponse>('/health', { background: true }),
  refetchInterval: TIMEOUTS_MS.healthRefresh,
});
