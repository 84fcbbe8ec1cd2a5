import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { findUserById, type UserRow } from '../users/users.repository.ts';

export const SESSION_COOKIE = 'cc_session';

/** Lifetimes: a browser session by default, a month when "remember me" is ticked. */
export const SESSION_POLICY = {
  standard: { idleMs: 8 * 60 * 60 * 1000, absoluteMs: 24 * 60 * 60 * 1000 },
  remember: { idleMs: 14 * 24 * 60 * 60 * 1000, absoluteMs: 30 * 24 * 60 * 60 * 1000 },
} as const;
/** lastSeenAt is refreshed at most this often, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export type SessionRow = typeof sessions.$inferSelect;

export interface NewSession {
  token: string;
  tokenHash: string;
  expiresAt: Date;
  remember: boolean;
}

type SessionOptions = { remember: boolean; userAgent?: string | undefined; ip?: string | undefined; now: number };

/** A new token and the row that stores its hash. */
function newSessionRow(userId: string, options: SessionOptions) {
  const token = randomToken(32);
  const policy = options.remember ? SESSION_POLICY.remember : SESSION_POLICY.standard;
  const row = {
    tokenHash: sha256(token),
    userId,
    remember: options.remember,
    userAgent: options.userAgent?.slice(0, 512) ?? null,
    ip: options.ip ?? null,
    createdAt: new Date(options.now),
    lastSeenAt: new Date(options.now),
    expiresAt: new Date(options.now + policy.absoluteMs),
  };
  return { token, row };
}

/** A session for a sign-in that needs no password check at insert time (single sign-on, registration). */
export async function createSession(db: Database, userId: string, options: SessionOptions): Promise<NewSession> {
  const { token, row } = newSessionRow(userId, options);
  await db.insert(sessions).values(row);
  return { token, tokenHash: row.tokenHash, expiresAt: row.expiresAt, remember: row.remember };
}

/**
 * A password sign-in's session, opened only while the account's password hash is still the one
 * the sign-in verified; null when it has changed since. A reset or change of password stores the
 * new hash and then revokes the sessions: a sign-in that checked the old password (argon2 takes
 * a while) and inserted after that revocation would otherwise outlive it. Checked in the insert
 * itself; FOR SHARE makes it wait for an update of the row not yet committed (PostgreSQL) and
 * read the row as that update left it, and makes such an update wait for this insert, which the
 * revocation after it then sees.
 */
export async function createSessionWhilePasswordIs(
  db: Database,
  userId: string,
  passwordHash: string,
  options: SessionOptions,
): Promise<NewSession | null> {
  const { token, row } = newSessionRow(userId, options);
  const result = await db.execute<{ token_hash: string }>(sql`
    insert into sessions (token_hash, user_id, remember, user_agent, ip, created_at, last_seen_at, expires_at)
    select ${row.tokenHash}::text, users.id, ${row.remember}::boolean, ${row.userAgent}::text, ${row.ip}::text,
      ${row.createdAt.toISOString()}::timestamptz, ${row.lastSeenAt.toISOString()}::timestamptz, ${row.expiresAt.toISOString()}::timestamptz
    from users
    where users.id = ${userId} and users.password_hash = ${passwordHash}
    for share of users
    returning token_hash
  `);
  if (result.rows.length === 0) return null;
  return { token, tokenHash: row.tokenHash, expiresAt: row.expiresAt, remember: row.remember };
}

/** The session and user behind a token, or null when unknown, revoked, idle too long or expired. */
export async function resolveSession(db: Database, token: string, now: number): Promise<{ session: SessionRow; user: UserRow } | null> {
  if (!token || token.length > 128) return null;
  const tokenHash = sha256(token);
  const [session] = await db.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
  if (!session || session.revokedAt) return null;
  const policy = session.remember ? SESSION_POLICY.remember : SESSION_POLICY.standard;
  if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + policy.idleMs <= now) return null;
  const user = await findUserById(db, session.userId);
  if (!user) return null;
  if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  return { session, user };
}

/** Not revoked (whether it expired is for `resolveSession`): what key creation re-checks under its lock. */
export async function isSessionLive(db: Database, tokenHash: string): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
    .limit(1);
  return row !== undefined;
}

export async function revokeSession(db: Database, tokenHash: string, now: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

/** Revokes every session of a user, optionally keeping one (the caller's). */
export async function revokeUserSessions(db: Database, userId: string, now: number, keepTokenHash?: string): Promise<void> {
  const condition = keepTokenHash
    ? and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.tokenHash, keepTokenHash))
    : and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
  await db
    .update(sessions)
    .set({ revokedAt: new Date(now) })
    .where(condition);
}
