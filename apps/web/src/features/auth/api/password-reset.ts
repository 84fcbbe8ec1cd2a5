import type { AuthMessageResponse } from '@conductor/shared';
import { api } from '~/lib/api-client';

export function requestPasswordReset(email: string): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/forgot-password', { email }, { skipAuthHandling: true });
}

/** Resolves when the link can still be used; rejects with the API's 400 when it cannot. */
export function checkResetLink(token: string): Promise<unknown> {
  // In the background: the form stays usable whatever this answers, so a server error is not announced twice.
  return api.post('/auth/reset-password/check', { token }, { skipAuthHandling: true, background: true });
}

export function resetPassword(token: string, password: string): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/reset-password', { token, password }, { skipAuthHandling: true });
}
