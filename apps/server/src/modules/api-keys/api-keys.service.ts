import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import type { ApiKeyPermissionId, ApiKeyView, CreatedApiKey } from '@conductor/shared/schemas/api-keys';
import { MAX_ACTIVE_API_KEYS } from '@conductor/shared/schemas/api-keys';
import { withAccountLock } from '../../db/account-lock.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { refuseOnDemo } from '../users/demo-account.ts';
import { isSessionLive, type SessionRow } from '../auth/session.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { type ApiKeyRow, generateApiKey, isApiKeyActive } from './api-key.ts';
import {
  countActiveApiKeys,
  findApiKeyOfUser,
  insertApiKey,
  listApiKeysOfUser,
  renameApiKeyOfUser,
  revokeAllApiKeysOfUser,
  revokeApiKeyOfUser,
  revokeApiKeysOfSession,
} from './api-keys.repository.ts';
import { forgetRevokedKeys } from './revocation.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toApiKeyView(row: ApiKeyRow, now: number, lockedReason?: string): ApiKeyView {
  const status = row.revokedAt ? 'revoked' : isApiKeyActive(row, now) ? 'active' : 'expired';
  const view: ApiKeyView = {
    id: row.id,
    name: row.name,
    environment: row.environment,
    masked: row.masked,
    permissions: row.permissions.filter((permission): permission is ApiKeyPermissionId => permission === 'api' || permission === 'admin'),
    status,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
  if (lockedReason !== undefined) view.lockedReason = lockedReason;
  return view;
}

/** Who manages keys: the signed-in user, and the session they signed in with. */
export interface KeyHolder {
  user: Pick<UserRow, 'id' | 'isDemo'>;
  session: Pick<SessionRow, 'tokenHash' | 'expiresAt'>;
}

/**
 * On the shared demo account each visitor has the seeded sample keys (the only keys without a
 * session: each start retires any other, see `retireDemoVisitorKeys`) and the keys of their own
 * session; another visitor's keys are not theirs to see or touch.
 */
function visibleTo(holder: KeyHolder, row: Pick<ApiKeyRow, 'createdSession'>): boolean {
  return !holder.user.isDemo || row.createdSession === null || row.createdSession === holder.session.tokenHash;
}

function viewFor(holder: KeyHolder, row: ApiKeyRow, now: number): ApiKeyView {
  const sample = holder.user.isDemo && row.createdSession === null;
  return toApiKeyView(row, now, sample ? DEMO_ACCOUNT_REFUSALS.sampleKey : undefined);
}

export async function listApiKeys(db: Database, holder: KeyHolder, now: number): Promise<ApiKeyView[]> {
  const rows = await listApiKeysOfUser(db, holder.user.id, holder.user.isDemo ? holder.session.tokenHash : undefined);
  return rows.filter((row) => visibleTo(holder, row)).map((row) => viewFor(holder, row, now));
}

export interface NewApiKeyRequest {
  name: string;
  environment: 'live' | 'test';
  permissions: ApiKeyPermissionId[];
  expiresInDays?: number | null | undefined;
}

/**
 * A key the signed-in user asked for. The shared demo account gets test keys only: a live key on it
 * (a Pro account) would let any visitor spend the operator's hosted provider keys. Its keys belong
 * to the visitor's session, and the active-key limit counts that session's keys.
 */
export async function createApiKeyFor(db: Database, holder: KeyHolder, input: NewApiKeyRequest, now: number): Promise<CreatedApiKey> {
  if (input.environment === 'live') refuseOnDemo(holder.user, DEMO_ACCOUNT_REFUSALS.liveApiKey, 'environment');
  return createApiKey(db, holder.user.id, input, now, holder.user.isDemo ? holder.session : undefined);
}

/**
 * Creates a key; the full secret is returned here once and never stored (only its hash). With
 * `session` (a demo visitor's), the key belongs to that session: it expires with it at the latest,
 * and the active-key limit counts that session's keys.
 */
export async function createApiKey(
  db: Database,
  userId: string,
  input: NewApiKeyRequest,
  now: number,
  session?: Pick<SessionRow, 'tokenHash' | 'expiresAt'>,
): Promise<CreatedApiKey> {
  // Counted and inserted under the account's lock: creates sent at once cannot pass the limit
  // together, and a sign-out (which revokes a demo session's keys under the same lock) cannot
  // slip between the session check and the insert.
  return withAccountLock(db, 'api-keys', userId, async (tx) => {
    if (session && !(await isSessionLive(tx, session.tokenHash))) throw new AppError('unauthorized', 'Sign in to continue.');
    if ((await countActiveApiKeys(tx, userId, now, session?.tokenHash)) >= MAX_ACTIVE_API_KEYS) {
      throw new AppError('conflict', `You can have at most ${MAX_ACTIVE_API_KEYS} active keys. Revoke one you no longer use.`);
    }
    return insertNewKey(tx, userId, input, now, session);
  });
}

async function insertNewKey(
  db: Database,
  userId: string,
  input: NewApiKeyRequest,
  now: number,
  session: Pick<SessionRow, 'tokenHash' | 'expiresAt'> | undefined,
): Promise<CreatedApiKey> {
  const requested = input.expiresInDays ? now + input.expiresInDays * DAY_MS : null;
  const sessionEnds = session?.expiresAt.getTime();
  const expiresAt = sessionEnds === undefined ? requested : Math.min(requested ?? sessionEnds, sessionEnds);
  const { key, keyHash, masked } = generateApiKey(input.environment);
  const row = await insertApiKey(db, {
    id: `key_${randomUUID().replaceAll('-', '')}`,
    userId,
    name: input.name,
    environment: input.environment,
    masked,
    keyHash,
    permissions: input.permissions,
    createdAt: new Date(now),
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
    createdSession: session?.tokenHash ?? null,
  });
  return { key, apiKey: toApiKeyView(row, now) };
}

/**
 * The keys the holder may change: every key of the account, or on the demo account only those of
 * the visitor's session (the change is scoped by it, so it costs one query).
 */
function changeScope(holder: KeyHolder): string | undefined {
  return holder.user.isDemo ? holder.session.tokenHash : undefined;
}

/**
 * A change matched no key the holder may change. On the demo account a sample key is refused (403)
 * with the reason; another visitor's key, like a missing one, is not found.
 */
async function refuseChange(db: Database, holder: KeyHolder, id: string): Promise<never> {
  if (holder.user.isDemo) {
    const row = await findApiKeyOfUser(db, holder.user.id, id);
    if (row?.createdSession === null) throw new AppError('forbidden', DEMO_ACCOUNT_REFUSALS.sampleKey);
  }
  throw new AppError('not_found', 'API key not found.');
}

export async function renameApiKey(db: Database, holder: KeyHolder, id: string, name: string, now: number): Promise<ApiKeyView> {
  const row = (await renameApiKeyOfUser(db, holder.user.id, id, name, changeScope(holder))) ?? (await refuseChange(db, holder, id));
  return toApiKeyView(row, now);
}

/** Revokes a key; the gateway stops accepting it at once. */
export async function revokeApiKey(db: Database, holder: KeyHolder, id: string, now: number): Promise<ApiKeyView> {
  const row = (await revokeApiKeyOfUser(db, holder.user.id, id, now, changeScope(holder))) ?? (await refuseChange(db, holder, id));
  forgetRevokedKeys([row.keyHash]);
  return toApiKeyView(row, now);
}

export async function revokeAllApiKeys(db: Database, userId: string, now: number): Promise<void> {
  forgetRevokedKeys(await revokeAllApiKeysOfUser(db, userId, now));
}

/**
 * A demo visitor's session ended: the keys it created stop working. Under the lock key creation
 * takes, after the session is revoked: a create running at the same time either finishes first
 * (and its key is revoked here) or finds the session gone.
 */
export async function revokeSessionApiKeys(db: Database, userId: string, tokenHash: string, now: number): Promise<void> {
  const hashes = await withAccountLock(db, 'api-keys', userId, (tx) => revokeApiKeysOfSession(tx, userId, tokenHash, now));
  forgetRevokedKeys(hashes);
}
