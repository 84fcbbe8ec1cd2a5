import { AUTH_COPY, PASSWORD_RESET_TTL_MS } from '@conductor/shared/schemas/auth-copy';
import { withAccountLock } from '../../db/account-lock.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { mailGreeting } from '../../lib/mail-greeting.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/password.ts';
import { invalidateAccountCache, invalidateProviderKeyCache } from '../../gateway/gateway.plugin.ts';
import { revokeAllApiKeys } from '../api-keys/api-keys.service.ts';
import { stopRenewalOnReclaim } from '../billing/billing.service.ts';
import { deleteAllProviderKeys } from '../provider-keys/provider-keys.repository.ts';
import { findUserByEmail, findUserById, type UserRow, updateUser } from '../users/users.repository.ts';
import {
  consumePasswordReset,
  insertPasswordReset,
  isPasswordResetUsable,
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
      mailGreeting(user.name, user.verified),
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
 * everywhere else. When the account's address had not been confirmed, whoever created the
 * account may not have owned it (anyone can register any address), so what they set up that
 * would go on working for them goes: API keys, provider keys and the routing default, and a paid
 * plan they chose stops renewing (`reclaimed`). The reset does not confirm the address: the link was mailed to the address the
 * account had then, which an e-mail change racing it may have replaced; the confirmation link
 * (signed for one address, ADR 0010) does that. Single sign-on links stay: accounts are created
 * from an identity only for an address its provider confirmed.
 */
export async function resetPassword(
  db: Database,
  input: {
    token: string;
    password: string;
    now: number;
    keepSessionTokenHash?: string | undefined;
    /** Stopping a reclaimed account's paid plan failed (logged by the caller; the reset stands). */
    onPlanError?: (error: unknown) => void;
  },
): Promise<{ reclaimed: boolean; planStopped?: boolean; user?: UserRow }> {
  assertPasswordAcceptable(input.password);
  const userId = await consumePasswordReset(db, sha256(input.token), input.now);
  if (!userId) throw new AppError('bad_request', AUTH_COPY.resetInvalid, { fields: { token: AUTH_COPY.resetInvalid } });
  await setPasswordHash(db, userId, await hashPassword(input.password), input.now);
  await retirePasswordResets(db, userId, input.now);
  await revokeUserSessions(db, userId, input.now, input.keepSessionTokenHash);
  const user = await findUserById(db, userId);
  if (!user || user.verified) return { reclaimed: false };
  // Under the API keys' account lock: a key being created at this moment lands before or after, never between.
  await withAccountLock(db, 'api-keys', userId, async (tx) => {
    await revokeAllApiKeys(tx, userId, input.now);
    await deleteAllProviderKeys(tx, userId);
    await updateUser(tx, userId, { routingPolicy: null, updatedAt: new Date(input.now) });
  });
  invalidateProviderKeyCache(userId);
  invalidateAccountCache(userId);
  // After the reset itself: a failure here must not undo it (the link is used up, the password
  // set); the plan then renews as before, and the answer does not claim otherwise.
  const planStopped = await stopRenewalOnReclaim(db, userId, input.now).catch((error: unknown) => {
    input.onPlanError?.(error);
    return false;
  });
  return { reclaimed: true, planStopped, user };
}

/** The reset page's first question: a used, expired or unknown link is refused as `resetPassword` would refuse it. */
export async function checkPasswordResetLink(db: Database, token: string, now: number): Promise<void> {
  if (!(await isPasswordResetUsable(db, sha256(token), now)))
    throw new AppError('bad_request', AUTH_COPY.resetInvalid, { fields: { token: AUTH_COPY.resetInvalid } });
}
