import { z } from 'zod';
import { MESSAGES } from '../constants/messages.ts';
import { PASSWORD_MAX_LENGTH } from '../constants/limits.ts';
import { PROVIDER_IDS } from '../constants/providers.ts';
import { Email, NewPassword, PersonName } from './fields.ts';

/** Changing the sign-in e-mail of an account that has a password asks for it (a session alone is not enough). */
export const EMAIL_CHANGE_NEEDS_PASSWORD = 'Enter your current password to change your email';

export const UpdateProfileInput = z
  .object({
    name: PersonName,
    email: Email,
    /** Checked only when the e-mail changes and the account has a password. */
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  })
  .strict();
export type UpdateProfileInput = z.infer<typeof UpdateProfileInput>;

export const ChangePasswordInput = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
    newPassword: NewPassword,
    confirmPassword: z.string({ error: MESSAGES.register.confirmRequired }).min(1, MESSAGES.register.confirmRequired),
  })
  .strict()
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: MESSAGES.register.passwordsDiffer,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const PASSWORD_CHANGED = 'Password updated. Other sessions were signed out.';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

/**
 * A single sign-on account has no password to confirm a change of e-mail or its deletion with: it
 * confirms by having signed in this recently (a session alone, a stolen one, is not enough). The
 * server refuses otherwise with 403 `reauthentication_required` and one of these messages.
 */
export const RECENT_SIGN_IN_MINUTES = 10;
export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';
export const SIGN_IN_AGAIN_TO_CHANGE_EMAIL = `To change your email, sign in again with single sign-on first: your last sign-in was more than ${RECENT_SIGN_IN_MINUTES} minutes ago.`;
export const SIGN_IN_AGAIN_TO_DELETE = `To delete your account, sign in again with single sign-on first: your last sign-in was more than ${RECENT_SIGN_IN_MINUTES} minutes ago.`;

/** Deleting the account needs the word typed out. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';
export const DELETE_NEEDS_PASSWORD = 'Enter your current password to delete your account';

/** An account with a password confirms with it too: a session alone (a stolen one) cannot delete the account. */
export const DeleteAccountInput = z
  .object({
    confirmation: z.literal(DELETE_CONFIRMATION_WORD, { error: `Type ${DELETE_CONFIRMATION_WORD} to confirm` }),
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
  })
  .strict();
export type DeleteAccountInput = z.infer<typeof DeleteAccountInput>;

export const ProviderParams = z.object({ provider: z.enum(PROVIDER_IDS) });
/**
 * A provider key; for Azure OpenAI also the resource it belongs to (`https://<resource>.openai.azure.com`).
 * Without one, an Azure key is used on the server's own resource.
 */
export const ProviderKeyInput = z
  .object({
    key: z.string().max(512),
    endpoint: z
      .string()
      .trim()
      .max(300)
      .regex(/^https?:\/\/[^\s/]+\/?$/, 'Enter the resource URL, like https://your-resource.openai.azure.com')
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .strict();
export type ProviderKeyInput = z.input<typeof ProviderKeyInput>;

export const SessionView = z.object({
  id: z.string(),
  current: z.boolean(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type SessionView = z.infer<typeof SessionView>;
export const SessionList = z.object({ sessions: z.array(SessionView) });
export type SessionList = z.infer<typeof SessionList>;
export const SessionIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-f0-9]+$/, 'Invalid session id'),
});
