import { z } from 'zod';
import { MESSAGES } from '../constants/messages.ts';
import { WaitlistEmail } from './fields.ts';

/** Where a sign-up came from: the coming-soon page's form or the footer's 'Stay updated' box. */
export const WAITLIST_SOURCES = ['coming_soon_page', 'footer'] as const;
export type WaitlistSource = (typeof WAITLIST_SOURCES)[number];

/**
 * Control, format (zero-width, bidi overrides), private-use and unassigned code points never
 * belong in an address; rejecting them keeps look-alike duplicates and log injection out.
 */
const INVISIBLE_OR_CONTROL = /\p{C}/u;

/**
 * The waitlist's e-mail: normalised first (so look-alike full-width forms cannot slip past the
 * pattern and collapse into something else later), then the spec's simple pattern plus the
 * hygiene a stored address needs. The output is the stored, case-insensitive form.
 */
export const WaitlistAddress = z
  .string({ error: MESSAGES.waitlist.invalidEmail })
  .max(1_000, MESSAGES.waitlist.invalidEmail)
  .transform(normaliseWaitlistEmail)
  .pipe(WaitlistEmail.refine((value) => !INVISIBLE_OR_CONTROL.test(value), { message: MESSAGES.waitlist.invalidEmail }));

/** `POST /v1/waitlist`. Unknown keys are refused so a typo in a client never passes silently. */
export const WaitlistRequest = z.strictObject({
  email: WaitlistAddress,
  source: z.enum(WAITLIST_SOURCES, { error: 'source must be coming_soon_page or footer' }),
});
export type WaitlistRequest = z.infer<typeof WaitlistRequest>;

export const WaitlistResponse = z.object({ message: z.string() });
export type WaitlistResponse = z.infer<typeof WaitlistResponse>;

/** Stored form of an address: trimmed, Unicode-normalised (NFKC) and lower-cased, so uniqueness is case-insensitive. */
export function normaliseWaitlistEmail(email: string): string {
  return email.trim().normalize('NFKC').toLowerCase();
}

export { waitlistFailureMessage, waitlistMessages } from '../constants/waitlist.ts';
