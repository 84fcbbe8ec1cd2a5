import { MESSAGES } from './messages.ts';

/**
 * The spec's exact UI message for a failed sign-up, from the HTTP status (0 = no response).
 * Kept free of zod so public pages can use it without loading the schemas.
 */
export function waitlistFailureMessage(status: number, supportEmail: string): string {
  if (status === 409) return MESSAGES.waitlist.duplicate;
  if (status === 400) return MESSAGES.waitlist.invalidEmail;
  return MESSAGES.waitlist.otherFailure(supportEmail);
}
