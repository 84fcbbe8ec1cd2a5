import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { oidcStore } from '../../db/schema/index.ts';

export type OidcStoreRow = typeof oidcStore.$inferSelect;

/** The oidc_store table: the embedded issuer's models and the relying party's short-lived transactions. */
export async function upsertOidcRecord(
  db: Database,
  record: { model: string; id: string; payload: Record<string, unknown>; expiresAt: Date | null },
): Promise<void> {
  const indexed = {
    payload: record.payload,
    grantId: stringOrNull(record.payload.grantId),
    userCode: stringOrNull(record.payload.userCode),
    uid: stringOrNull(record.payload.uid),
    expiresAt: record.expiresAt,
    consumedAt: null,
  };
  await db
    .insert(oidcStore)
    .values({ model: record.model, id: record.id, ...indexed })
    .onConflictDoUpdate({ target: [oidcStore.model, oidcStore.id], set: indexed });
}

export async function findOidcRecord(db: Database, model: string, by: { id?: string; uid?: string; userCode?: string }) {
  const condition = by.id
    ? eq(oidcStore.id, by.id)
    : by.uid
      ? eq(oidcStore.uid, by.uid)
      : by.userCode
        ? eq(oidcStore.userCode, by.userCode)
        : undefined;
  if (!condition) return undefined;
  const [row] = await db
    .select()
    .from(oidcStore)
    .where(and(eq(oidcStore.model, model), condition))
    .limit(1);
  return row;
}

export async function consumeOidcRecord(db: Database, model: string, id: string, now: Date): Promise<void> {
  await db
    .update(oidcStore)
    .set({ consumedAt: now })
    .where(and(eq(oidcStore.model, model), eq(oidcStore.id, id)));
}

export async function deleteOidcRecord(db: Database, model: string, id: string): Promise<void> {
  await db.delete(oidcStore).where(and(eq(oidcStore.model, model), eq(oidcStore.id, id)));
}

/** Removes and returns a record in one statement: the single-use read behind transactions. */
export async function takeOidcRecord(db: Database, model: string, id: string): Promise<OidcStoreRow | undefined> {
  const [row] = await db
    .delete(oidcStore)
    .where(and(eq(oidcStore.model, model), eq(oidcStore.id, id)))
    .returning();
  return row;
}

/** Every token issued under a grant (codes, access tokens...), whatever its model. */
export async function deleteOidcRecordsByGrant(db: Database, grantId: string): Promise<void> {
  await db.delete(oidcStore).where(eq(oidcStore.grantId, grantId));
}

export async function deleteExpiredOidcRecords(db: Database, now: Date): Promise<void> {
  await db.delete(oidcStore).where(lt(oidcStore.expiresAt, now));
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
