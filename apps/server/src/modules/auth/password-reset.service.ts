import { AUTH_COPY, PASSWORD_RESET_TTL_MS } from '@conductor/shared/schemas/auth-copy';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/password.ts';
import { invalidateAccountCache, invalidateProviderKeyCache } from '../../gateway/gateway.plugin.ts';
import { revokeAllApiKeys } from '../api-keys/api-keys.service.ts';
import { deleteAllProviderKeys } from '../provider-keys/provider-keys.repository.ts';
import { findUserByEmail, findUserById, updateUser } from '../users/users.repository.ts';
import {
  consumePasswordReset,
  deleteIdentitiesOfUser,
  insertPasswordReset,
  retirePasswordResets,
  setPasswordHash,
} from './accounts.repository.ts';
import { assertPasswordAcceptable } from './auth.service.ts';
import { revokeUserSessions } from './session.service.ts';

export const PASSWORD_RESET_MAIL_KIND = 'password_reset';

/**
 * Creates a single-use link (only its hash is stored) and e-mails it. Does nothing for an
 * unknown address: the caller answers the same either way and does not wait for this.
 */
export async function sendPasswordResetLink(
  deps: { db: Database; mailer: Mailer },
  input: { email: string; origin: string; now: number },
): Promise<void> {
  const user = await findUserByEmail(deps.db, input.email);
  // The shared demo account's password is published, never reset (seeding restores it anyway).
  if (!user || user.isDemo) return;
  const token = randomToken(32);
  await insertPasswordReset(deps.db, {
    tokenHash: sha256(token),
    userId: user.id,
    expiresAt: new Date(input.now + PASSWORD_RESET_TTL_MS),
    createdAt: new Date(input.now),
  });
  const link = `${input.origin}/reset-password?token=${token}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Reset your Conductor password',
    kind: PASSWORD_RESET_MAIL_KIND,
    // Tried again after a failed delivery only while the link still works.
    deliverForMs: PASSWORD_RESET_TTL_MS,
    text: [
      `Hi ${user.name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your Conductor account. Choose a new password here:',
      '',
      link,
      '',
      'The link expires in 1 hour and works once. If you did not ask for this, ignore this email: your password stays the same.',
      '',
      'The Conductor team',
    ].join('\n'),
  });
}

/**
 * Sets the new password, retires the link (and every other one), and signs the user out
 * everywhere else. The link proves its user owns the address; when the account's address had not
 * been confirmed, whoever created the account may not have owned it (anyone can register any
 * address), so what they set up goes: API keys, provider keys and single sign-on links, and the
 * address counts as confirmed from now on. `reclaimed` says whether that happened.
 */
export async function resetPassword(
  db: Database,
  input: { token: string; password: string; now: number; keepSessionTokenHash?: string | undefined },
): Promise<{ reclaimed: boolean }> {
  assertPasswordAcceptable(input.password);
  const userId = await consumePasswordReset(db, sha256(input.token), input.now);
  if (!userId) throw new AppError('bad_request', AUTH_COPY.resetInvalid, { fields: { token: AUTH_COPY.resetInvalid } });
  await setPasswordHash(db, userId, await hashPassword(input.password), input.now);
  await retirePasswordResets(db, userId, input.now);
  await revokeUserSessions(db, userId, input.now, input.keepSessionTokenHash);
  const user = await findUserById(db, userId);
  if (!user || user.verified) return { reclaimed: false };
  await revokeAllApiKeys(db, userId, input.now);
  await deleteAllProviderKeys(db, userId);
  await deleteIdentitiesOfUser(db, userId);
  await updateUser(db, userId, { verified: true, updatedAt: new Date(input.now) });
  invalidateProviderKeyCache(userId);
  invalidateAccountCache(userId);
  return { reclaimed: true };
}
