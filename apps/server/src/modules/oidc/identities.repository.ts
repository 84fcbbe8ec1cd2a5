import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { userIdentities, users } from '../../db/schema/index.ts';
import type { NewUserRow, UserRow } from '../users/users.repository.ts';

export async function findUserByIdentity(db: Database, issuer: string, subject: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .limit(1);
  return row?.user;
}

/**
 * Creates the user and its identity together; undefined when the e-mail is already taken
 * (case-insensitively), in which case nothing is written.
 */
export async function insertUserWithIdentity(
  db: Database,
  user: NewUserRow,
  identity: { issuer: string; subject: string; provider: string },
): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(users).values(user).onConflictDoNothing().returning();
    if (!row) return undefined;
    await tx.insert(userIdentities).values({ ...identity, userId: row.id, createdAt: row.createdAt });
    return row;
  });
}

export async function refreshIdentityClaims(
  db: Database,
  userId: string,
  patch: { oidcClaims: Record<string, unknown>; verified?: boolean; now: number },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ oidcClaims: patch.oidcClaims, ...(patch.verified ? { verified: true } : {}), updatedAt: new Date(patch.now) })
    .where(eq(users.id, userId))
    .returning();
  return row;
}
