import { and, count, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/index.ts';
import type { ApiKeyRow } from './api-key.ts';

export type NewApiKeyRow = typeof apiKeys.$inferInsert;

/** A user's keys, newest first; with `session`, only the keys without one (the demo's samples) and that session's. */
export async function listApiKeysOfUser(db: Database, userId: string, session?: string): Promise<ApiKeyRow[]> {
  const ofSession = session === undefined ? undefined : or(isNull(apiKeys.createdSession), eq(apiKeys.createdSession, session));
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), ofSession))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Active keys of a user; with `createdSession`, only those that session created (the demo account's visitors). */
export async function countActiveApiKeys(db: Database, userId: string, now: number, createdSession?: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.userId, userId),
        createdSession === undefined ? undefined : eq(apiKeys.createdSession, createdSession),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date(now))),
      ),
    );
  return row?.value ?? 0;
}

export async function insertApiKey(db: Database, row: NewApiKeyRow): Promise<ApiKeyRow> {
  const [inserted] = await db.insert(apiKeys).values(row).returning();
  if (!inserted) throw new Error('insert returned no row');
  return inserted;
}

/**
 * One key of a user: another user's key id matches nothing. With `session` (a demo visitor's), only
 * a key that session created matches.
 */
function oneKey(userId: string, id: string, session?: string) {
  return and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), session === undefined ? undefined : eq(apiKeys.createdSession, session));
}

/** Renames one key (scoped as `oneKey`); undefined when there is no such key. */
export async function renameApiKeyOfUser(
  db: Database,
  userId: string,
  id: string,
  name: string,
  session?: string,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ name })
    .where(oneKey(userId, id, session))
    .returning();
  return row;
}

export async function findApiKeyOfUser(db: Database, userId: string, id: string, session?: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(oneKey(userId, id, session))
    .limit(1);
  return row;
}

/** Revokes one key (idempotent, scoped as `oneKey`); returns the row, or undefined when there is no such key. */
export async function revokeApiKeyOfUser(
  db: Database,
  userId: string,
  id: string,
  now: number,
  session?: string,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(now) })
    .where(and(oneKey(userId, id, session), isNull(apiKeys.revokedAt)))
    .returning();
  return row ?? findApiKeyOfUser(db, userId, id, session);
}

/** Revokes every key of a user; returns the hashes of the keys that were still usable. */
export async function revokeAllApiKeysOfUser(db: Database, userId: string, now: number): Promise<string[]> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash });
  return rows.map((row) => row.keyHash);
}

/** Revokes the keys one session created (a demo visitor's); returns their hashes. */
export async function revokeApiKeysOfSession(db: Database, userId: string, tokenHash: string, now: number): Promise<string[]> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.createdSession, tokenHash), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash });
  return rows.map((row) => row.keyHash);
}
