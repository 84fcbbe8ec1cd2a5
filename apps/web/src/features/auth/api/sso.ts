import type {
  AuthProvidersResponse,
  OidcCallbackRequest,
  OidcCallbackResponse,
  OidcStartRequest,
  OidcStartResponse,
} from '@conductor/shared/schemas/sso';
import { api } from '~/lib/api-client';
import type { PublicQueryOptions } from '~/lib/public-query';

/** Which sign-on providers this server has configured, and whether the demo account exists (read by the public sign-in pages). */
export const providersQueryOptions: PublicQueryOptions<AuthProvidersResponse> = {
  key: 'auth/providers',
  fetch: () => api.get<AuthProvidersResponse>('/auth/providers', { skipAuthHandling: true }),
  staleTime: 5 * 60 * 1000,
};

export function startSso(body: OidcStartRequest): Promise<OidcStartResponse> {
  return api.post<OidcStartResponse>('/auth/oidc/start', body, { skipAuthHandling: true });
}

export function completeSso(body: OidcCallbackRequest): Promise<OidcCallbackResponse> {
  return api.post<OidcCallbackResponse>('/auth/oidc/callback', body, { skipAuthHandling: true });
}
