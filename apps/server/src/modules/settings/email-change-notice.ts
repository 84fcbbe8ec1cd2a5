import { SUPPORT } from '@conductor/shared';
import { mailGreeting } from '../../lib/mail-greeting.ts';
import type { MailMessage } from '../../lib/mailer.ts';

export const EMAIL_CHANGED_MAIL_KIND = 'email_changed';

/** `nora@example.org` → `n***@example.org`: enough for the owner to recognise, too little to write to. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** `2025-01-14 09:30 UTC`: one unambiguous form, whatever the reader's time zone. */
const utcMinute = (now: number) => `${new Date(now).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The message to the address an account leaves: if someone else changed it, this is the
 * owner's only warning before password resets start going to the new address.
 */
export function emailChangedNotice(input: {
  name: string;
  /** Whether the address the account leaves was confirmed. */
  verified: boolean;
  oldEmail: string;
  newEmail: string;
  now: number;
}): MailMessage {
  return {
    to: input.oldEmail,
    subject: 'Your Conductor email address was changed',
    kind: EMAIL_CHANGED_MAIL_KIND,
    text: [
      mailGreeting(input.name, input.verified),
      '',
      `The email address of your Conductor account was changed to ${maskEmail(input.newEmail)} on ${utcMinute(input.now)}.`,
      'Sign-in, password reset and billing messages now go to the new address, not to this one.',
      '',
      `If you made this change, there is nothing to do. If you did not, contact us right away at ${SUPPORT.email}: someone may have access to your account.`,
      '',
      'The Conductor team',
    ].join('\n'),
  };
}
