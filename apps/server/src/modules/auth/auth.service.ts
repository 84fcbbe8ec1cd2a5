import { randomUUID } from 'node:crypto';
import { MESSAGES, type RegisterRequest } from '@conductor/shared';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/password.ts';
import { findUserByEmail, type UserRow } from '../users/users.repository.ts';
import { insertUserIfEmailFree } from './accounts.repository.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './password-policy.ts';

/** Refuses very common passwords with the field-level message the form shows under the password. */
export function assertPasswordAcceptable(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('validation_failed', COMMON_PASSWORD_MESSAGE, { fields: { password: COMMON_PASSWORD_MESSAGE } });
  }
}

/** A new e-mail account: free plan, onboarding not done (spec section 3). */
export async function registerAccount(db: Database, input: RegisterRequest, now: number): Promise<UserRow> {
  assertPasswordAcceptable(input.password);
  if (await findUserByEmail(db, input.email)) throw duplicateEmail();
  const passwordHash = await hashPassword(input.password);
  const user = await insertUserIfEmailFree(db, {
    id: randomUUID(),
    email: input.email,
    name: input.name,
    passwordHash,
    plan: 'free',
    verified: false,
    authMethod: 'email',
    onboardingCompleted: false,
    createdAt: new Date(now),
    updatedAt: new Date(now),
  });
  // A concurrent registration may have taken the address between the check and the insert.
  if (!user) throw duplicateEmail();
  return user;
}

function duplicateEmail(): AppError {
  return new AppError('conflict', MESSAGES.register.duplicateEmail, { fields: { email: MESSAGES.register.duplicateEmail } });
}

/**
 * Checks an e-mail and password. Unknown accounts and accounts without a password (single
 * sign-on only) cost the same argon2 verification, so timing does not tell them apart.
 * The throttle's failure points are reserved before the check and kept when it fails.
 */
export async function authenticate(
  db: Database,
  throttle: LoginThrottle,
  input: { email: string; password: string; ip: string },
): Promise<UserRow> {
  const reservation = await throttle.reserve(input.email, input.ip);
  let user: UserRow | undefined;
  let valid: boolean;
  try {
    user = await findUserByEmail(db, input.email);
    valid = user?.passwordHash
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyPassword(await dummyPasswordHash(), input.password).then(() => false);
  } catch (error) {
    // No answer about the password (e.g. the database is down): not a failure to count.
    await reservation.release();
    throw error;
  }
  if (!user || !valid) throw new AppError('unauthorized', MESSAGES.login.invalidCredentials);
  await reservation.succeeded();
  return user;
}
