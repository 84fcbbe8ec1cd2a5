import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { sessions } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { recordUsageEvents } from '../usage/usage.writer.ts';
import { SESSION_POLICY } from './session.service.ts';

describe('sessions', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  it('returns the signed-in user with live usage from the rollup', async () => {
    const { user, cookie } = await createUserWithSession(harness.app, { name: 'Ada Lovelace', plan: 'pro' });
    const now = new Date(harness.app.context.clock.now());
    await recordUsageEvents(harness.app.context.database.db, [
      {
        requestId: 'r1',
        userId: user.id,
        environment: 'live',
        provider: 'openai',
        model: 'gpt-4o',
        promptTokens: 100,
        completionTokens: 50,
        statusCode: 200,
        createdAt: now,
      },
      {
        requestId: 'r2',
        userId: user.id,
        environment: 'test',
        provider: 'sandbox',
        model: 'gpt-4o',
        promptTokens: 10,
        completionTokens: 5,
        statusCode: 200,
        createdAt: now,
      },
    ]);
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.isAuthenticated).toBe(true);
    expect(body.user).toMatchObject({
      name: 'Ada Lovelace',
      plan: 'pro',
      usage: { tokensUsed: 150, tokensLimit: 1_000_000, requestsToday: 2, requestsLimit: 100 },
    });
    expect(JSON.stringify(body)).not.toContain('password');
  });

  it('stores only a hash of the token', async () => {
    const { token } = await createUserWithSession(harness.app);
    const rows = await harness.app.context.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    expect(rows).toHaveLength(1);
    const all = await harness.app.context.database.db.select().from(sessions);
    expect(JSON.stringify(all)).not.toContain(token);
  });

  it('refuses a revoked session after sign-out', async () => {
    const { cookie } = await createUserWithSession(harness.app);
    const origin = { origin: 'http://localhost:3000', host: 'localhost:3000' };
    const logout = await harness.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie, ...origin }, payload: {} });
    expect(logout.statusCode).toBe(200);
    const after = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(after.json().isAuthenticated).toBe(false);
  });

  it('refuses an expired session', async () => {
    const { token, cookie } = await createUserWithSession(harness.app);
    await harness.app.context.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(token)));
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(response.json().isAuthenticated).toBe(false);
  });

  it('refuses a session idle for longer than its policy allows', async () => {
    const { token, cookie } = await createUserWithSession(harness.app);
    await harness.app.context.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_POLICY.standard.idleMs - 1000) })
      .where(eq(sessions.tokenHash, sha256(token)));
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthorized');
  });

  it('refuses cross-origin state-changing requests', async () => {
    const { cookie } = await createUserWithSession(harness.app);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { cookie, origin: 'https://evil.example', host: 'localhost:80' },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    const still = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(still.json().isAuthenticated).toBe(true);
  });

  it('applies the same checks to a path written with percent-escapes, which the router decodes', async () => {
    const { cookie } = await createUserWithSession(harness.app);
    // `/%61pi/…` is routed to `/api/…`: a cross-site form must not get past the origin check with it.
    const crossSite = await harness.app.inject({
      method: 'POST',
      url: '/%61pi/v1/auth/logout',
      headers: { cookie, origin: 'https://evil.example', host: 'localhost:80', 'content-type': 'text/plain' },
      payload: 'x=1',
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error.message).toBe('Cross-origin request refused.');
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } })).json().isAuthenticated).toBe(
      true,
    );
    // From our own origin the escaped path is the same call, with the session it carries: signing out ends it.
    const sameSite = await harness.app.inject({
      method: 'POST',
      url: '/%61pi/v1/auth/logout',
      headers: { cookie, origin: 'http://localhost:3000', host: 'localhost:3000' },
      payload: {},
    });
    expect(sameSite.statusCode).toBe(200);
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } })).json().isAuthenticated).toBe(
      false,
    );
  });
});
