import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys, providerKeys, users } from '../../db/schema/index.ts';

export type KeyRow = typeof apiKeys.$inferSelect;
export type ProviderKeyRow = typeof providerKeys.$inferSelect;

export interface KeyWithAccount {
  key: KeyRow;
  user: Pick<typeof users.$inferSelect, 'id' | 'plan' | 'routingPolicy' | 'isDemo'>;
  /** The account's stored (encrypted) provider keys. */
  providerKeys: ProviderKeyRow[];
}

/** A key by its SHA-256 with its account and sealed provider keys, in one query (the gateway's cache-miss path). */
export async function findKeyWithAccount(db: Database, keyHash: string): Promise<KeyWithAccount | undefined> {
  const rows = await db
    .select({
      key: apiKeys,
      user: { id: users.id, plan: users.plan, routingPolicy: users.routingPolicy, isDemo: users.isDemo },
      providerKey: providerKeys,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(providerKeys, eq(providerKeys.userId, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash));
  const first = rows[0];
  if (!first) return undefined;
  return { key: first.key, user: first.user, providerKeys: rows.flatMap((row) => (row.providerKey ? [row.providerKey] : [])) };
}
