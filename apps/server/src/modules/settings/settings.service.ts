import { PROVIDER_KEY_RULES } from '@conductor/shared/schemas/onboarding';
import type { ProviderId, PublicUser } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { RoutingPolicy } from '@conductor/shared/openai/chat';
import type { SessionView } from '@conductor/shared/schemas/settings';
import {
  DELETE_NEEDS_PASSWORD,
  EMAIL_CHANGE_NEEDS_PASSWORD,
  RECENT_SIGN_IN_MINUTES,
  SIGN_IN_AGAIN_TO_CHANGE_EMAIL,
  SIGN_IN_AGAIN_TO_DELETE,
  WRONG_CURRENT_PASSWORD,
} from '@conductor/shared/schemas/settings';
import type { Database } from '../../db/client.ts';
import { sha256 } from '../../lib/crypto.ts';
import { invalidateAccountCache, invalidateProviderKeyCache } from '../../gateway/gateway.plugin.ts';
import { AppError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { revokeAllApiKeysOfUser } from '../api-keys/api-keys.repository.ts';
import { forgetRevokedKeys } from '../api-keys/revocation.ts';
import { closeBillingAndRemove } from '../billing/billing.service.ts';
import { finalInvoiceMail } from '../billing/final-invoice-mail.ts';
// The reset module's own retirement of outstanding links (what a completed reset runs too).
import { retirePasswordResets } from '../auth/accounts.repository.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../auth/password-policy.ts';
import { revokeSession, revokeUserSessions, type SessionRow } from '../auth/session.service.ts';
import { checkAzureResource } from '../provider-keys/azure-resource.ts';
import { deleteAllProviderKeys, deleteProviderKey, upsertProviderKey } from '../provider-keys/provider-keys.repository.ts';
import { refuseOnDemo } from '../users/demo-account.ts';
import { findUserById, updateUser, type UserRow } from '../users/users.repository.ts';
import { toPublicUser } from '../users/users.service.ts';
import { emailChangedNotice } from './email-change-notice.ts';
import { deleteUserRow, emailTakenByAnother, listLiveSessionsOfUser } from './settings.repository.ts';

export const EMAIL_TAKEN = 'An account with this email already exists.';
export const NO_PASSWORD = 'Your account signs in with single sign-on, so it has no password to change.';
export const SAME_PASSWORD = 'Choose a password different from your current one.';

async function publicUserById(db: Database, id: string, now: number): Promise<PublicUser> {
  const user = await findUserById(db, id);
  if (!user) throw new AppError('not_found', 'Account not found.');
  return toPublicUser(db, user, now);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

const emailChanges = (user: Pick<UserRow, 'email'>, email: string) => email.toLowerCase() !== user.email.toLowerCase();

/** Whether this profile change checks the current password (the routes count wrong ones only on such changes). */
export function profileChangeChecksPassword(user: Pick<UserRow, 'email' | 'passwordHash'>, input: { email: string }): boolean {
  return emailChanges(user, input.email) && user.passwordHash !== null;
}

/**
 * Saves name and e-mail. A new e-mail needs the current password (when the account has one),
 * is unverified until proven otherwise, and the old address is told about the change: with a
 * stolen session alone nobody can quietly move the account, and its password resets, elsewhere.
 * Reset links sent to the old address stop working. The demo account keeps its published e-mail.
 */
export async function updateProfile(
  db: Database,
  { user, session }: { user: UserRow; session: SignIn },
  input: { name: string; email: string; currentPassword?: string | undefined },
  now: number,
  mailer: Mailer,
): Promise<PublicUser> {
  const emailChanged = emailChanges(user, input.email);
  if (input.name !== user.name) refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.name, 'name');
  // The demo keeps its published address as written: a change of case alone is a change there too.
  if (input.email !== user.email) refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.email, 'email');
  if (emailChanged) await checkPasswordForEmailChange(user, input.currentPassword);
  if (emailChanged && !user.passwordHash) assertRecentSignIn(session, now, SIGN_IN_AGAIN_TO_CHANGE_EMAIL, 'email');
  if (emailChanged && (await emailTakenByAnother(db, input.email, user.id))) {
    throw new AppError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  }
  try {
    await updateUser(db, user.id, { name: input.name, email: input.email, ...(emailChanged ? { verified: false } : {}) });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
    throw error;
  }
  if (emailChanged) await retirePasswordResets(db, user.id, now);
  if (emailChanged)
    await mailer.notify(emailChangedNotice({ name: user.name, verified: user.verified, oldEmail: user.email, newEmail: input.email, now }));
  return publicUserById(db, user.id, now);
}

/** The sign-in a session began with (`sessions.created_at`). */
type SignIn = Pick<SessionRow, 'createdAt'>;

/**
 * Single sign-on accounts have no password to confirm with: they confirm by a recent sign-in
 * (RECENT_SIGN_IN_MINUTES), so a session alone, a stolen one, cannot move or delete the account.
 */
function assertRecentSignIn(session: SignIn, now: number, message: string, field?: string): void {
  if (now - session.createdAt.getTime() <= RECENT_SIGN_IN_MINUTES * 60_000) return;
  throw new AppError('reauthentication_required', message, field ? { fields: { [field]: message } } : {});
}

/** Accounts without a password (single sign-on) have none to give: a recent sign-in and the notice to the old address are their safeguards. */
async function checkPasswordForEmailChange(user: UserRow, currentPassword: string | undefined): Promise<void> {
  if (!user.passwordHash) return;
  if (!currentPassword) {
    throw new AppError('validation_failed', EMAIL_CHANGE_NEEDS_PASSWORD, { fields: { currentPassword: EMAIL_CHANGE_NEEDS_PASSWORD } });
  }
  await assertCurrentPassword(user.passwordHash, currentPassword);
}

/** The 400 every check of the current password gives (the routes count these per account). */
async function assertCurrentPassword(passwordHash: string, currentPassword: string): Promise<void> {
  if (!(await verifyPassword(passwordHash, currentPassword))) {
    throw new AppError('validation_failed', WRONG_CURRENT_PASSWORD, { fields: { currentPassword: WRONG_CURRENT_PASSWORD } });
  }
}

/**
 * Checks the current password, stores the new one, retires outstanding reset links and signs out
 * every other session. The demo account keeps its published password.
 */
export async function changePassword(
  db: Database,
  user: UserRow,
  input: { currentPassword: string; newPassword: string },
  keepSessionHash: string,
  now: number,
): Promise<void> {
  refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.password);
  if (!user.passwordHash) throw new AppError('bad_request', NO_PASSWORD);
  await assertCurrentPassword(user.passwordHash, input.currentPassword);
  if (input.newPassword === input.currentPassword) {
    throw new AppError('validation_failed', SAME_PASSWORD, { fields: { newPassword: SAME_PASSWORD } });
  }
  if (isCommonPassword(input.newPassword)) {
    throw new AppError('validation_failed', COMMON_PASSWORD_MESSAGE, { fields: { newPassword: COMMON_PASSWORD_MESSAGE } });
  }
  await updateUser(db, user.id, { passwordHash: await hashPassword(input.newPassword) });
  await retirePasswordResets(db, user.id, now);
  await revokeUserSessions(db, user.id, now, keepSessionHash);
}

/** A stable public id for a session that reveals nothing about its token. */
export const sessionPublicId = (tokenHash: string) => sha256(`session-id:${tokenHash}`).slice(0, 32);

type SessionOwner = Pick<UserRow, 'id' | 'isDemo'>;

/** The account's live sessions; on the shared demo account only the caller's own (not other visitors' addresses and browsers). */
async function visibleSessions(db: Database, user: SessionOwner, currentHash: string, now: number) {
  const rows = await listLiveSessionsOfUser(db, user.id, now);
  return user.isDemo ? rows.filter((row) => row.tokenHash === currentHash) : rows;
}

export async function listSessions(db: Database, user: SessionOwner, currentHash: string, now: number): Promise<SessionView[]> {
  const rows = await visibleSessions(db, user, currentHash, now);
  return rows.map((row) => ({
    id: sessionPublicId(row.tokenHash),
    current: row.tokenHash === currentHash,
    userAgent: row.userAgent,
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}

export async function revokeSessionById(db: Database, user: SessionOwner, id: string, currentHash: string, now: number): Promise<void> {
  const rows = await visibleSessions(db, user, currentHash, now);
  const target = rows.find((row) => sessionPublicId(row.tokenHash) === id);
  if (!target) throw new AppError('not_found', 'Session not found.');
  if (target.tokenHash === currentHash) throw new AppError('bad_request', 'This is your current session: use Sign Out to end it.');
  await revokeSession(db, target.tokenHash, now);
}

/**
 * Validates a provider key by the spec's rule for that provider and stores it encrypted. Not on the
 * demo account: the gateway prefers an account's own keys, so one visitor's key would serve them all.
 */
export async function saveProviderKey(
  db: Database,
  encryptionKey: Buffer,
  user: Pick<UserRow, 'id' | 'isDemo'>,
  provider: ProviderId,
  input: { key: string; endpoint?: string | undefined; allowLocalEndpoint?: boolean },
  now: number,
): Promise<PublicUser> {
  refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.providerKeys, 'key');
  const userId = user.id;
  const parsed = PROVIDER_KEY_RULES[provider].safeParse(input.key);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Invalid key';
    throw new AppError('validation_failed', message, { fields: { key: message } });
  }
  const endpoint = providerEndpoint(provider, input.endpoint, input.allowLocalEndpoint ?? false);
  await upsertProviderKey(db, encryptionKey, userId, provider, parsed.data, now, endpoint);
  invalidateProviderKeyCache(userId);
  return publicUserById(db, userId, now);
}

/**
 * An Azure OpenAI key belongs to one resource, so it may come with that resource's URL: checked
 * like the server's own (https, the provider's hosts, no credentials or query), so a key is never
 * sent elsewhere. Other providers have one endpoint: none may be given.
 */
function providerEndpoint(provider: ProviderId, endpoint: string | undefined, allowLocal: boolean): string | null {
  if (endpoint === undefined) return null;
  if (provider !== 'azure') {
    const message = 'Only an Azure OpenAI key takes an endpoint.';
    throw new AppError('validation_failed', message, { fields: { endpoint: message } });
  }
  return checkAzureResource(endpoint, allowLocal, 'endpoint');
}

/**
 * Removes a provider key. The plan stays as it is: bring-your-own-keys with no key left serves
 * nothing (the gateway never uses the server's keys on it) until a key is added again or another
 * plan is chosen in Billing. Falling back to Free here would strand the account: Billing offers
 * no way back to bring-your-own-keys.
 */
export async function removeProviderKey(db: Database, user: UserRow, provider: ProviderId, now: number): Promise<PublicUser> {
  refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.providerKeys);
  if (!(await deleteProviderKey(db, user.id, provider))) throw new AppError('not_found', 'No key is stored for this provider.');
  invalidateProviderKeyCache(user.id);
  return publicUserById(db, user.id, now);
}

/** The account's default routing policy; a stored value the gateway would not accept reads as none (it routes `single`). */
export function readRoutingPolicy(user: Pick<UserRow, 'routingPolicy'>): RoutingPolicy | null {
  if (!user.routingPolicy) return null;
  const parsed = RoutingPolicy.safeParse(user.routingPolicy);
  return parsed.success ? parsed.data : null;
}

/**
 * Stores (or, with null, removes) the account's default routing policy; the gateway uses it from
 * the next request on. The shared demo account's stays as seeded: it would route every visitor.
 */
export async function saveRoutingPolicy(
  db: Database,
  user: Pick<UserRow, 'id' | 'isDemo'>,
  policy: RoutingPolicy | null,
): Promise<RoutingPolicy | null> {
  refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.routing);
  const userId = user.id;
  const row = await updateUser(db, userId, { routingPolicy: policy });
  if (!row) throw new AppError('not_found', 'Account not found.');
  // Cached principals carry the old default: drop them here and, through Redis, on every other instance.
  invalidateAccountCache(userId);
  return readRoutingPolicy(row);
}

/**
 * Deletes the account in one transaction, under its billing lock: the subscription ends with a
 * final invoice for the overage owed so far, keys are revoked, sessions end, provider keys go, then
 * every row of the user but its invoices (kept, with no account). Should any of it fail, nothing is
 * changed (the account keeps its keys and its sessions). Once it is done, the caches forget the keys
 * and the account, and the final invoice, if any, is mailed to the account's address: its owner can
 * no longer see it in Billing. An account with a password
 * gives it (400 without it or when wrong); a single sign-on account without one has the typed
 * confirmation only. The shared demo account is never deleted.
 */
export async function deleteAccount(
  db: Database,
  { user, session }: { user: Pick<UserRow, 'id' | 'name' | 'email' | 'verified' | 'passwordHash' | 'isDemo'>; session: SignIn },
  currentPassword: string | undefined,
  now: number,
  mailer: Mailer,
): Promise<void> {
  refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.deleteAccount);
  if (user.passwordHash) {
    if (!currentPassword)
      throw new AppError('validation_failed', DELETE_NEEDS_PASSWORD, { fields: { currentPassword: DELETE_NEEDS_PASSWORD } });
    await assertCurrentPassword(user.passwordHash, currentPassword);
  } else {
    assertRecentSignIn(session, now, SIGN_IN_AGAIN_TO_DELETE);
  }
  const userId = user.id;
  let revokedKeys: string[] = [];
  const finalInvoice = await closeBillingAndRemove(db, userId, now, async (tx) => {
    // The user row's deletion cascades to these too: revoked first all the same, so the keys are known to the caches below.
    revokedKeys = await revokeAllApiKeysOfUser(tx, userId, now);
    await revokeUserSessions(tx, userId, now);
    await deleteAllProviderKeys(tx, userId);
    await deleteUserRow(tx, userId);
  });
  forgetRevokedKeys(revokedKeys);
  invalidateAccountCache(userId);
  if (finalInvoice)
    await mailer.notify(finalInvoiceMail({ name: user.name, email: user.email, verified: user.verified, invoice: finalInvoice }));
}
