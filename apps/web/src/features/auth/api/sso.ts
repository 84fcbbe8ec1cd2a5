import type {
  AuthProvidersResponse,
  OidcCallbackRequest,
  OidcCallbackResponse,
  OidcStartRequest,
  OidcStartResponse,
} from '@conductor/shared/schemas/sso';
import { queryOptions } from '@tanstack/react-query';
import { api } from '~/lib/api-client';

export const authKeys = { providers: ['auth', 'providers'] as const };

/** Which sign-on providers this server has configured, and whether the demo account exists. */
export const providersQueryOptions = queryOptions({
  queryKey: authKeys.providers,
  queryFn: () => api.get<AuthProvidersResponse>('/auth/providers', { skipAuthHandling: true }),
  staleTime: 5 * 60 * 1000,
});

export function startSso(body: OidcStartRequest): Promise<OidcStartResponse> {
  return api.post<OidcStartResponse>('/auth/oidc/start', body, { skipAuthHandling: true });
}

export function completeSso(body: OidcCallbackRequest): Promise<OidcCallbackResponse> {
  return api.post<OidcCallbackResponse>('/auth/oidc/callback', body, { skipAuthHandling: true });
}
