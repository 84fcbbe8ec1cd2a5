import { randomUUID } from 'node:crypto';
import { MESSAGES } from '@conductor/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { LOGIN_LIMITS } from './login-throttle.ts';
import { SESSION_COOKIE, SESSION_POLICY } from './session.service.ts';

const PASSWORD = 'Harbour-Lantern-42';
let counter = 0;
const uniqueEmail = () => {
  counter += 1;
  return `person-${Date.now().toString(36)}-${counter}@example.com`;
};

function sessionCookie(response: { headers: Record<string, unknown> }): string | undefined {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  return lines.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

describe('accounts: register and sign in', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const register = (payload: object, remoteAddress = '10.1.0.1') =>
    harness.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload, remoteAddress });
  const login = (payload: object, remoteAddress = '10.2.0.1', headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload, remoteAddress, headers });

  it('registers a free account, hashes the password with argon2id and signs in with an HttpOnly SameSite=Lax cookie', async () => {
    const email = uniqueEmail();
    const response = await register({ name: 'Ada Lovelace', email, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({
      email,
      name: 'Ada Lovelace',
      plan: 'free',
      authMethod: 'email',
      verified: false,
      onboardingCompleted: false,
      oidcProvider: null,
      usage: { tokensUsed: 0, tokensLimit: 10_000, requestsToday: 0, requestsLimit: 10 },
    });
    const cookie = sessionCookie(response);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/);
    expect(cookie, 'a session cookie without remember-me ends with the browser').not.toMatch(/Expires=/i);
    const [row] = await harness.app.context.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(response.json())).not.toContain(PASSWORD);
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await register({ name: 'First', email, password: PASSWORD })).statusCode).toBe(201);
    const again = await register({ name: 'Second', email: email.toUpperCase(), password: PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      message: MESSAGES.register.duplicateEmail,
      fields: { email: MESSAGES.register.duplicateEmail },
    });
    const rows = await harness.app.context.database.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(rows).toHaveLength(1);
  });

  it('refuses very common passwords with a clear message', async () => {
    const response = await register({ name: 'Common', email: uniqueEmail(), password: 'Password123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ password: MESSAGES.register.commonPassword });
  });

  it.each([
    [{ name: 'A', password: PASSWORD }, 'name', MESSAGES.register.nameTooShort],
    [{ name: 'Ada', password: 'short1A' }, 'password', MESSAGES.register.passwordTooShort],
    [{ name: 'Ada', password: 'lowercaseonly1' }, 'password', MESSAGES.register.passwordComplexity],
  ])('validates the payload with the spec messages: %o', async (payload, field, message) => {
    const response = await register({ email: uniqueEmail(), ...payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[field]).toBe(message);
  });

  it('signs in with the right password only, with the same answer for an unknown account', async () => {
    const email = uniqueEmail();
    await register({ name: 'Grace', email, password: PASSWORD });
    const ok = await login({ email, password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(email);
    const wrong = await login({ email, password: 'Not-the-password-1' });
    const unknown = await login({ email: uniqueEmail(), password: PASSWORD });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      // The spec's answer of the sign-in call (the form's toast says MESSAGES.login.failure).
      expect(response.json().error.message).toBe(MESSAGES.login.invalidCredentials);
      expect(sessionCookie(response)).toBeUndefined();
    }
  });

  it('remember me gives the longer session lifetime', async () => {
    const email = uniqueEmail();
    await register({ name: 'Remy', email, password: PASSWORD });
    const response = await login({ email, password: PASSWORD, remember: true });
    const cookie = sessionCookie(response) ?? '';
    const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(SESSION_POLICY.remember.absoluteMs - 60_000);
    const token = /^cc_session=([^;]+)/.exec(cookie)?.[1] ?? '';
    const [row] = await harness.app.context.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    expect(row?.remember).toBe(true);
    expect(row?.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_POLICY.standard.absoluteMs);
  });

  it('signing in replaces the session the browser already had', async () => {
    const email = uniqueEmail();
    const first = await register({ name: 'Fix', email, password: PASSWORD });
    const oldCookie = (sessionCookie(first) ?? '').split(';')[0] ?? '';
    await login({ email, password: PASSWORD }, '10.2.0.9', { cookie: oldCookie });
    const stale = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: oldCookie } });
    expect(stale.statusCode).toBe(401);
  });

  it('GET /auth/me answers 401 without a session and the user with one', async () => {
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me' })).statusCode).toBe(401);
    const email = uniqueEmail();
    const cookie = (sessionCookie(await register({ name: 'Me', email, password: PASSWORD })) ?? '').split(';')[0] ?? '';
    const me = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(email);
  });

  it('refuses a cross-origin sign-in', async () => {
    const email = uniqueEmail();
    await register({ name: 'Cross', email, password: PASSWORD });
    const response = await login({ email, password: PASSWORD }, '10.2.0.3', { origin: 'https://evil.example', host: 'localhost:8080' });
    expect(response.statusCode).toBe(403);
    expect(sessionCookie(response)).toBeUndefined();
  });

  describe('brute force', () => {
    it('throttles guesses at one account from one address, without locking the owner out elsewhere', async () => {
      const email = uniqueEmail();
      await register({ name: 'Target', email, password: PASSWORD });
      for (let attempt = 0; attempt < LOGIN_LIMITS.accountIpFailures.points; attempt += 1) {
        expect((await login({ email, password: `Guess-number-${attempt}` }, '10.66.0.1')).statusCode).toBe(401);
      }
      const blocked = await login({ email, password: PASSWORD }, '10.66.0.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.message).toMatch(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(sessionCookie(blocked)).toBeUndefined();

      const owner = await login({ email, password: PASSWORD }, '10.77.0.1');
      expect(owner.statusCode).toBe(200);
    });

    it('caps failures per address across accounts (credential stuffing)', async () => {
      const address = '10.88.0.1';
      for (let attempt = 0; attempt < LOGIN_LIMITS.ipFailures.points; attempt += 1) {
        expect((await login({ email: uniqueEmail(), password: 'Whatever-123' }, address)).statusCode).toBe(401);
      }
      expect((await login({ email: uniqueEmail(), password: 'Whatever-123' }, address)).statusCode).toBe(429);
    });

    it("a successful sign-in clears that address's failures for the account", async () => {
      const email = uniqueEmail();
      await register({ name: 'Typo', email, password: PASSWORD });
      for (let round = 0; round < 2; round += 1) {
        for (let attempt = 0; attempt < LOGIN_LIMITS.accountIpFailures.points - 1; attempt += 1) {
          expect((await login({ email, password: 'Typo-in-password-1' }, '10.99.0.1')).statusCode).toBe(401);
        }
        expect((await login({ email, password: PASSWORD }, '10.99.0.1')).statusCode).toBe(200);
      }
    });
  });
});

describe('sign-in throttling shared through Redis', () => {
  let harness: TestApp;
  const prefix = `conductor-test-${randomUUID().slice(0, 8)}:`;
  beforeAll(async () => {
    harness = await createTestApp({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', GATEWAY_REDIS_PREFIX: prefix });
  });
  afterAll(async () => harness.close());

  it('counts failures in Redis', async () => {
    const email = uniqueEmail();
    const address = `10.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 200)}.7`;
    await harness.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { name: 'Redis', email, password: PASSWORD } });
    for (let attempt = 0; attempt < LOGIN_LIMITS.accountIpFailures.points; attempt += 1) {
      await harness.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email, password: 'Wrong-pass-1' },
        remoteAddress: address,
      });
    }
    // Under the deployment's prefix, as every key the server writes (several deployments may share one Redis).
    const key = `${prefix}rl:auth:login-account-ip:${email}|${address}`;
    expect(Number(await harness.app.context.redis?.get(key))).toBe(LOGIN_LIMITS.accountIpFailures.points);
    const blocked = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: PASSWORD },
      remoteAddress: address,
    });
    expect(blocked.statusCode).toBe(429);
    await harness.app.context.redis?.del(key);
  });
});

describe('session cookie over https', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp({ PUBLIC_URL: 'https://conductor.example' });
  });
  afterAll(async () => harness.close());

  it('is marked Secure', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Secure', email: uniqueEmail(), password: PASSWORD },
    });
    expect(response.statusCode).toBe(201);
    expect(sessionCookie(response)).toMatch(/; Secure/);
  });
});
