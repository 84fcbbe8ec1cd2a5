import type { WaitlistSource } from '../schemas/waitlist.ts';
import { MESSAGES } from './messages.ts';

/** The messages of a list: the footer's box promises product news, the coming-soon page a launch. */
export function waitlistMessages(source: WaitlistSource): typeof MESSAGES.waitlist | typeof MESSAGES.subscribe {
  return source === 'footer' ? MESSAGES.subscribe : MESSAGES.waitlist;
}

/**
 * The spec's exact UI message for a failed sign-up, from the HTTP status (0 = no response); a
 * duplicate from the footer's box is told it is already subscribed, not on a waitlist.
 * Kept free of zod so public pages can use it without loading the schemas.
 */
export function waitlistFailureMessage(status: number, supportEmail: string, source: WaitlistSource = 'coming_soon_page'): string {
  if (status === 409) return waitlistMessages(source).duplicate;
  if (status === 400) return MESSAGES.waitlist.invalidEmail;
  return MESSAGES.waitlist.otherFailure(supportEmail);
}
