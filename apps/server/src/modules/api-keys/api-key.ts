import { KEY_PREFIX, type KeyEnvironment, maskApiKey } from '@conductor/shared';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/index.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export const API_KEY_PERMISSIONS = ['api', 'admin'] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

/** A new key: the full secret (shown once), its SHA-256 (stored) and the masked form (listed). */
export function generateApiKey(environment: KeyEnvironment): { key: string; keyHash: string; masked: string } {
  const key = `${KEY_PREFIX[environment]}${randomToken(32)}`;
  return { key, keyHash: sha256(key), masked: maskApiKey(key) };
}

export function hashApiKey(key: string): string {
  return sha256(key);
}

export async function findApiKeyByHash(db: Database, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash)).limit(1);
  return row;
}

/** Usable at the gateway: not revoked, not expired. */
export function isApiKeyActive(key: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now: number): boolean {
  return !key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > now);
}

export async function touchApiKey(db: Database, id: string, userId: string, now: number): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
}
