import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { deleteUsers } from '../users/users.repository.ts';

export async function listLiveSessionsOfUser(db: Database, userId: string, now: number) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date(now))))
    .orderBy(desc(sessions.lastSeenAt));
}

export async function emailTakenByAnother(db: Database, email: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, ne(users.id, userId)))
    .limit(1);
  return Boolean(row);
}

export async function deleteUserRow(db: Database, userId: string): Promise<void> {
  await deleteUsers(db, eq(users.id, userId));
}
