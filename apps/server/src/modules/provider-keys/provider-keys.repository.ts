import { maskProviderKey, type ProviderId } from '@conductor/shared';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { providerKeys } from '../../db/schema/index.ts';
import { open, seal } from '../../lib/crypto.ts';

/** Stores (or replaces) a user's own provider key, AES-256-GCM encrypted. */
export async function upsertProviderKey(
  db: Database,
  encryptionKey: Buffer,
  userId: string,
  provider: ProviderId,
  secret: string,
  now: number,
  /** Azure OpenAI: the account's own resource (null: the server's). */
  baseUrl: string | null = null,
): Promise<{ provider: ProviderId; masked: string }> {
  const sealed = seal(secret, encryptionKey);
  const masked = maskProviderKey(secret);
  await db
    .insert(providerKeys)
    .values({ userId, provider, ...sealed, masked, baseUrl, createdAt: new Date(now), updatedAt: new Date(now) })
    .onConflictDoUpdate({
      target: [providerKeys.userId, providerKeys.provider],
      set: { ...sealed, masked, baseUrl, updatedAt: new Date(now) },
    });
  return { provider, masked };
}

export async function deleteProviderKey(db: Database, userId: string, provider: ProviderId): Promise<boolean> {
  const rows = await db
    .delete(providerKeys)
    .where(and(eq(providerKeys.userId, userId), eq(providerKeys.provider, provider)))
    .returning({ provider: providerKeys.provider });
  return rows.length > 0;
}

export async function deleteAllProviderKeys(db: Database, userId: string): Promise<void> {
  await db.delete(providerKeys).where(eq(providerKeys.userId, userId));
}

/** Decrypts a user's provider keys in memory, for the gateway only. Never log or return these. */
export async function loadDecryptedProviderKeys(
  db: Database,
  encryptionKey: Buffer,
  userId: string,
): Promise<Partial<Record<ProviderId, string>>> {
  const rows = await db.select().from(providerKeys).where(eq(providerKeys.userId, userId));
  const result: Partial<Record<ProviderId, string>> = {};
  for (const row of rows) result[row.provider as ProviderId] = open(row, encryptionKey);
  return result;
}
