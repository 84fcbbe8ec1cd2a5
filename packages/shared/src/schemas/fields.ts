import { z } from 'zod';
import { MESSAGES } from '../constants/messages.ts';
import { PASSWORD_MAX_LENGTH } from '../constants/limits.ts';

/** Field schemas defined once and composed into the forms' and the server's schemas. */
const STANDARD_EMAIL = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;
/** The waitlist's simple pattern: text, @, text, dot, text, no spaces. */
const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
  .regex(SIMPLE_EMAIL, MESSAGES.waitlist.invalidEmail);

export const LoginPassword = z
  .string({ error: MESSAGES.login.passwordRequired })
  .min(1, MESSAGES.login.passwordRequired)
  .min(6, MESSAGES.login.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH);

export const NewPassword = z
  .string({ error: MESSAGES.register.passwordRequired })
  .min(1, MESSAGES.register.passwordRequired)
  .min(8, MESSAGES.register.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value), {
    message: MESSAGES.register.passwordComplexity,
  });

export const PersonName = z
  .string({ error: MESSAGES.register.nameRequired })
  .trim()
  .min(1, MESSAGES.register.nameRequired)
  .min(2, MESSAGES.register.nameTooShort)
  .max(100, 'Name must be at most 100 characters')
  // Control characters (NUL above all: PostgreSQL text refuses it) have no place in a name.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { message: 'Name must not contain control characters' });
