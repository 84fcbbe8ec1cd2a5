import { SUPPORT } from '@conductor/shared';
import type { WaitlistResponse, WaitlistSource } from '@conductor/shared/schemas/waitlist';
import { ApiError, publicApi } from '~/lib/api-client';

/** `POST /v1/waitlist`; resolves with the server's message, rejects with the spec's exact UI message. */
export async function joinWaitlist(email: string, source: WaitlistSource): Promise<string> {
  try {
    const response = await publicApi.post<WaitlistResponse>('/waitlist', { email, source });
    return response.message;
  } catch (error) {
    // The spec's messages load with the first failure, keeping them off the page's first load.
    const { waitlistFailureMessage } = await import('@conductor/shared/constants/waitlist');
    throw new Error(waitlistFailureMessage(error instanceof ApiError ? error.status : 0, SUPPORT.email));
  }
}
