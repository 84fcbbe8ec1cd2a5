import type { AuthMessageResponse } from '@conductor/shared';
import { api } from '~/lib/api-client';

export function confirmEmail(token: string): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/verify-email', { token }, { skipAuthHandling: true });
}

export function resendConfirmation(): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/verification-email');
}
