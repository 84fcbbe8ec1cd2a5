import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema/index.ts';
import type { NewUserRow, UserRow } from '../users/users.repository.ts';

/** Inserts the user unless the e-mail is taken (case-insensitively); undefined means taken. */
export async function insertUserIfEmailFree(db: Database, user: NewUserRow): Promise<UserRow | undefined> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing().returning();
  return row;
}

export async function setPasswordHash(db: Database, userId: string, passwordHash: string, now: number): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, updatedAt: new Date(now) })
    .where(eq(users.id, userId));
}

export async function insertPasswordReset(
  db: Database,
  reset: { tokenHash: string; userId: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(passwordResets).values(reset);
}

/** The reset row behind a link that can still be used: this token's, unused and unexpired at `now`. */
function usableReset(tokenHash: string, now: number) {
  return and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date(now)));
}

/** Marks the reset used, once: the user id when the token was unused and unexpired, else undefined. */
export async function consumePasswordReset(db: Database, tokenHash: string, now: number): Promise<string | undefined> {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: new Date(now) })
    .where(usableReset(tokenHash, now))
    .returning({ userId: passwordResets.userId });
  return row?.userId;
}

/** Whether a reset link is still usable (unused, unexpired), without using it. */
export async function isPasswordResetUsable(db: Database, tokenHash: string, now: number): Promise<boolean> {
  const [row] = await db.select({ userId: passwordResets.userId }).from(passwordResets).where(usableReset(tokenHash, now)).limit(1);
  return row !== undefined;
}

/** Every other outstanding link of the user stops working once the password has changed. */
export async function retirePasswordResets(db: Database, userId: string, now: number): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: new Date(now) })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
