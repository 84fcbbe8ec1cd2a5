import type { AuthMessageResponse } from '@conductor/shared';
import { api } from '~/lib/api-client';

export function requestPasswordReset(email: string): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/forgot-password', { email }, { skipAuthHandling: true });
}

export function resetPassword(token: string, password: string): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/reset-password', { token, password }, { skipAuthHandling: true });
}
