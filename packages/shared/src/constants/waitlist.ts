import { MESSAGES } from './messages.ts';

/**
 * The spec's exact UI message for a failed sign-up, from the HTTP status (0 = no response); a
 * duplicate from the footer's box is told it is already subscribed, not on a waitlist.
 * Kept free of zod so public pages can use it without loading the schemas.
 */
export function waitlistFailureMessage(
  status: number,
  supportEmail: string,
  source: 'coming_soon_page' | 'footer' = 'coming_soon_page',
): string {
  if (status === 409) return source === 'footer' ? MESSAGES.subscribe.duplicate : MESSAGES.waitlist.duplicate;
  if (status === 400) return MESSAGES.waitlist.invalidEmail;
  return MESSAGES.waitlist.otherFailure(supportEmail);
}
