import type { AuthMessageResponse } from '@conductor/shared';
import { api } from '~/lib/api-client';

export function confirmEmail(token: string): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/verify-email', { token }, { skipAuthHandling: true });
}

export function resendConfirmation(): Promise<AuthMessageResponse> {
  return api.post<AuthMessageResponse>('/auth/verification-email');
}

/** A confirmation link opened while signed out: kept in this tab until the user has signed in. */
const PENDING_KEY = 'conductor-pending-confirmation';

export function rememberPendingConfirmation(token: string): void {
  try {
    window.sessionStorage.setItem(PENDING_KEY, token);
  } catch {
    // storage unavailable: the user opens the link again once signed in
  }
}

/** The pending token, removed as it is read. */
export function takePendingConfirmation(): string | null {
  try {
    const token = window.sessionStorage.getItem(PENDING_KEY);
    window.sessionStorage.removeItem(PENDING_KEY);
    return token;
  } catch {
    return null;
  }
}
