import { z } from 'zod';
import { MESSAGES } from '../constants/messages.ts';
import { PASSWORD_MAX_LENGTH } from '../constants/limits.ts';

/** Field schemas defined once and composed into the forms' and the server's schemas. */
const STANDARD_EMAIL = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;
/**
 * The waitlist's simple pattern (spec): text, @, text, dot, text, no spaces; as
 * `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` decides it, without that pattern's backtracking, which takes
 * quadratic time on a long run of dots (the check runs even when the length check has failed).
 */
export function isSimpleEmail(value: string): boolean {
  if (/\s/.test(value)) return false;
  const at = value.indexOf('@');
  if (at < 1 || value.indexOf('@', at + 1) !== -1) return false;
  // A dot with text on both sides, in the domain.
  return value.slice(at + 2, -1).includes('.');
}

export const Email = z
  .string({ error: MESSAGES.login.emailRequired })
  .trim()
  .min(1, MESSAGES.login.emailRequired)
  .max(254, MESSAGES.login.emailInvalid)
  .regex(STANDARD_EMAIL, MESSAGES.login.emailInvalid);

export const WaitlistEmail = z
  .string({ error: MESSAGES.waitlist.invalidEmail })
  .trim()
  .min(1, MESSAGES.waitlist.invalidEmail)
  .max(254, MESSAGES.waitlist.invalidEmail)
  .refine(isSimpleEmail, MESSAGES.waitlist.invalidEmail);

export const LoginPassword = z
  .string({ error: MESSAGES.login.passwordRequired })
  .min(1, MESSAGES.login.passwordRequired)
  .min(6, MESSAGES.login.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const NewPassword = z
  .string({ error: MESSAGES.register.passwordRequired })
  .min(1, MESSAGES.register.passwordRequired)
  .min(8, MESSAGES.register.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value), {
    message: MESSAGES.register.passwordComplexity,
  });

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Characters that reorder or hide text around them (bidirectional overrides and isolates). */
const REORDERING = /[\u202a-\u202e\u2066-\u2069]/;
/** `value` without the characters that reorder the text after them (`REORDERING`), e.g. a file name to show. */
export function withoutReordering(value: string): string {
  return value.replace(new RegExp(REORDERING.source, 'g'), '');
}

/** Whitespace and invisible formatting characters (zero-width spaces and joiners among them). */
const INVISIBLE = /[\p{Z}\p{Cf}\s]/gu;

/**
 * Free text of one or more lines (messages, descriptions): no control characters but tab and
 * line breaks. NUL above all: PostgreSQL's text refuses it, so it must be a 400 here, not a 500.
 */
export function withoutControlCharacters(label: string) {
  return [(value: string) => !CONTROL_IN_TEXT.test(value), { message: `${label} must not contain control characters` }] as const;
}

/**
 * A label people read (a name, a key's name): no control characters, no characters that reverse
 * or isolate the text after them (a name shown as `gnp.exe` that is really `exe.png`), and at least
 * one visible character. Joiners stay allowed inside a name (Persian names and emoji use them).
 */
export function readableLabel(label: string) {
  return [
    (value: string) => !/\p{Cc}/u.test(value) && !REORDERING.test(value) && (value === '' || value.replace(INVISIBLE, '') !== ''),
    { message: `${label} must be readable text: no control, direction-changing or only invisible characters` },
  ] as const;
}

export const PersonName = z
  .string({ error: MESSAGES.register.nameRequired })
  .trim()
  .min(1, MESSAGES.register.nameRequired)
  .min(2, MESSAGES.register.nameTooShort)
  .max(100, 'Name must be at most 100 characters')
  // Control characters (NUL above all: PostgreSQL text refuses it) have no place in a name.
  .refine(...readableLabel('Name'));
