import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import type { ApiKeyPermissionId, ApiKeyView, CreatedApiKey } from '@conductor/shared/schemas/api-keys';
import { MAX_ACTIVE_API_KEYS } from '@conductor/shared/schemas/api-keys';
import { withAccountLock } from '../../db/account-lock.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { refuseOnDemo } from '../users/demo-account.ts';
import type { UserRow } from '../users/users.repository.ts';
import { type ApiKeyRow, generateApiKey, isApiKeyActive } from './api-key.ts';
import {
  countActiveApiKeys,
  insertApiKey,
  listApiKeysOfUser,
  renameApiKeyOfUser,
  revokeAllApiKeysOfUser,
  revokeApiKeyOfUser,
} from './api-keys.repository.ts';
import { forgetRevokedKeys } from './revocation.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toApiKeyView(row: ApiKeyRow, now: number): ApiKeyView {
  const status = row.revokedAt ? 'revoked' : isApiKeyActive(row, now) ? 'active' : 'expired';
  return {
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
}

export async function listApiKeys(db: Database, userId: string, now: number): Promise<ApiKeyView[]> {
  const rows = await listApiKeysOfUser(db, userId);
  return rows.map((row) => toApiKeyView(row, now));
}

export interface NewApiKeyRequest {
  name: string;
  environment: 'live' | 'test';
  permissions: ApiKeyPermissionId[];
  expiresInDays?: number | null | undefined;
}

/**
 * A key the signed-in user asked for. The shared demo account gets test keys only: a live key on it
 * (a Pro account) would let any visitor spend the operator's hosted provider keys.
 */
export async function createApiKeyFor(
  db: Database,
  user: Pick<UserRow, 'id' | 'isDemo'>,
  input: NewApiKeyRequest,
  now: number,
): Promise<CreatedApiKey> {
  if (input.environment === 'live') refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.liveApiKey, 'environment');
  return createApiKey(db, user.id, input, now);
}

/** Creates a key; the full secret is returned here once and never stored (only its hash). */
export async function createApiKey(db: Database, userId: string, input: NewApiKeyRequest, now: number): Promise<CreatedApiKey> {
  // Counted and inserted under the account's lock: creates sent at once cannot pass the limit together.
  return withAccountLock(db, 'api-keys', userId, async (tx) => {
    if ((await countActiveApiKeys(tx, userId, now)) >= MAX_ACTIVE_API_KEYS) {
      throw new AppError('conflict', `You can have at most ${MAX_ACTIVE_API_KEYS} active keys. Revoke one you no longer use.`);
    }
    return insertNewKey(tx, userId, input, now);
  });
}

async function insertNewKey(db: Database, userId: string, input: NewApiKeyRequest, now: number): Promise<CreatedApiKey> {
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
    expiresAt: input.expiresInDays ? new Date(now + input.expiresInDays * DAY_MS) : null,
  });
  return { key, apiKey: toApiKeyView(row, now) };
}

export async function renameApiKey(db: Database, userId: string, id: string, name: string, now: number): Promise<ApiKeyView> {
  const row = await renameApiKeyOfUser(db, userId, id, name);
  if (!row) throw new AppError('not_found', 'API key not found.');
  return toApiKeyView(row, now);
}

/** Revokes a key; the gateway stops accepting it at once. */
export async function revokeApiKey(db: Database, userId: string, id: string, now: number): Promise<ApiKeyView> {
  const row = await revokeApiKeyOfUser(db, userId, id, now);
  if (!row) throw new AppError('not_found', 'API key not found.');
  forgetRevokedKeys([row.keyHash]);
  return toApiKeyView(row, now);
}

export async function revokeAllApiKeys(db: Database, userId: string, now: number): Promise<void> {
  forgetRevokedKeys(await revokeAllApiKeysOfUser(db, userId, now));
}
