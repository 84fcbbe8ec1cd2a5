import { MESSAGES } from '@conductor/shared';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, usePostgres } from '../../../test/helpers.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/password.ts';
import { insertUser } from '../users/users.repository.ts';
import { insertPasswordReset } from './accounts.repository.ts';
import { createSessionWhilePasswordIs, SESSION_COOKIE } from './session.service.ts';

/** Lets a test hold a sign-in between its password check and its session insert (argon2 is slow: the real window). */
const hooks = vi.hoisted(() => ({ afterVerify: null as ((password: string) => Promise<void>) | null }));
vi.mock('../../lib/password.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lib/password.ts')>();
  return {
    ...actual,
    async verifyPassword(passwordHash: string, password: string) {
      const valid = await actual.verifyPassword(passwordHash, password);
      const hook = hooks.afterVerify;
      hooks.afterVerify = null;
      await hook?.(password);
      return valid;
    },
  };
});

const OLD_PASSWORD = 'Original-Lantern-7';
const NEW_PASSWORD = 'Brand-New-Harbour-8';

/** Holds the next password check once it has verified; `reached` resolves then, `release()` lets it go on. */
function holdNextVerification() {
  let reachedResolve = () => {};
  let release = () => {};
  const reached = new Promise<void>((resolve) => {
    reachedResolve = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  hooks.afterVerify = async () => {
    reachedResolve();
    await released;
  };
  return { reached, release };
}

describe('a sign-in with the old password racing a password change', () => {
  let harness: TestApp;
  let counter = 0;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterEach(() => {
    hooks.afterVerify = null;
  });
  afterAll(async () => harness.close());

  const db = () => harness.app.context.database.db;
  const login = (email: string, password: string) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: '10.31.0.1' });

  async function account() {
    counter += 1;
    const user = await insertUser(db(), {
      id: crypto.randomUUID(),
      email: `race-${Date.now().toString(36)}-${counter}@example.com`,
      name: 'Rae',
      passwordHash: await hashPassword(OLD_PASSWORD),
      authMethod: 'email',
      plan: 'free',
      onboardingCompleted: true,
      verified: true,
    });
    return user;
  }

  const liveSessions = (userId: string) =>
    db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));

  it('does not open a session once a reset has replaced the password it checked', async () => {
    const user = await account();
    const token = `race-token-${counter}-${'x'.repeat(30)}`;
    const now = harness.app.context.clock.now();
    await insertPasswordReset(db(), {
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt: new Date(now + 60_000),
      createdAt: new Date(now),
    });
    const held = holdNextVerification();
    const racing = login(user.email, OLD_PASSWORD);
    await held.reached;
    const reset = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token, password: NEW_PASSWORD },
      remoteAddress: '10.31.0.2',
    });
    expect(reset.statusCode).toBe(200);
    held.release();

    const response = await racing;
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe(MESSAGES.login.invalidCredentials);
    expect(String(response.headers['set-cookie'] ?? '')).not.toContain(`${SESSION_COOKIE}=`);
    expect(await liveSessions(user.id)).toHaveLength(0);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('does not open a session once a change of password in settings has replaced it', async () => {
    const user = await account();
    const owner = await login(user.email, OLD_PASSWORD);
    const cookie = String(owner.headers['set-cookie']).split(';')[0] ?? '';
    const held = holdNextVerification();
    const racing = login(user.email, OLD_PASSWORD);
    await held.reached;
    const change = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/settings/password',
      payload: { currentPassword: OLD_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      headers: { cookie },
      remoteAddress: '10.31.0.3',
    });
    expect(change.statusCode).toBe(200);
    held.release();

    const response = await racing;
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe(MESSAGES.login.invalidCredentials);
    // Only the session that changed the password remains.
    const live = await liveSessions(user.id);
    expect(live.map((row) => row.tokenHash)).toEqual([sha256(cookie.slice(`${SESSION_COOKIE}=`.length))]);
  });

  it('a sign-in that fails this way keeps the session the browser had', async () => {
    const other = await account();
    const before = await login(other.email, OLD_PASSWORD);
    const cookie = String(before.headers['set-cookie']).split(';')[0] ?? '';
    const user = await account();
    const held = holdNextVerification();
    const racing = harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: OLD_PASSWORD },
      headers: { cookie },
      remoteAddress: '10.31.0.4',
    });
    await held.reached;
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(NEW_PASSWORD) })
      .where(eq(users.id, user.id));
    held.release();
    expect((await racing).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).statusCode).toBe(200);
  });

  // PostgreSQL has many connections: the insert must wait for an update of the password not yet committed.
  // Only registered in the PostgreSQL run (the server suite runs again there); PGlite has one connection.
  if (usePostgres)
    it('waits for an uncommitted change of the password and then opens no session', async () => {
      const user = await account();
      const oldHash = user.passwordHash ?? '';
      const client = new pg.Client({ connectionString: databaseUrl(harness) });
      await client.connect();
      try {
        await client.query('begin');
        await client.query('update users set password_hash = $1 where id = $2', [await hashPassword(NEW_PASSWORD), user.id]);
        let settled = false;
        const inserting = createSessionWhilePasswordIs(db(), user.id, oldHash, { remember: false, now: Date.now() }).finally(() => {
          settled = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(settled, 'the insert waits for the update').toBe(false);
        await client.query('commit');
        expect(await inserting).toBeNull();
      } finally {
        await client.end();
      }
      expect(await liveSessions(user.id)).toHaveLength(0);
    });
});

/** The test database's URL (PostgreSQL only). */
function databaseUrl(harness: TestApp): string {
  const url = harness.app.context.env.DATABASE_URL;
  if (!url) throw new Error('no DATABASE_URL');
  return url;
}
