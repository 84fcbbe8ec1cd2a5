import { DEMO_CREDENTIALS, limitsForPlan } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS, DEMO_OTHER_VISITOR_KEY } from '@conductor/shared/constants/demo-account';
import { MAX_ACTIVE_API_KEYS } from '@conductor/shared/schemas/api-keys';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { sweepDemoVisitorKeys } from '../../db/seed.ts';
import { apiKeys, providerKeys, sessions, usageEvents, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { verifyPassword } from '../../lib/password.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { sessionPublicId } from './settings.service.ts';

const OPENAI_KEY = 'sk-abcdefghijklmnopqrstuvwxyz0123456789';

/** The login page publishes the demo credentials: every visitor signs in to the same account. */
describe('the shared demo account', () => {
  let harness: TestApp;
  let visitor: string;
  let other: { cookie: string; token: string };
  let demoId: string;

  const signIn = async (remoteAddress: string, userAgent: string) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress,
      headers: { 'content-type': 'application/json', 'user-agent': userAgent },
      payload: JSON.stringify({ email: DEMO_CREDENTIALS.email, password: DEMO_CREDENTIALS.password, remember: false }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
    return { cookie, token: cookie.slice(cookie.indexOf('=') + 1) };
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    harness.app.inject({
      method,
      url,
      headers: payload === undefined ? { cookie } : jsonHeaders(cookie),
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const expectRefused = (response: { statusCode: number; json(): { error: { code: string; message: string } } }, message: string) => {
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'forbidden', message });
  };
  const demoRow = async () => (await harness.app.context.database.db.select().from(users).where(eq(users.id, demoId)))[0];

  beforeAll(async () => {
    harness = await createTestApp({ DEMO_ACCOUNT: 'on' });
    visitor = (await signIn('203.0.113.10', 'Visitor A browser')).cookie;
    other = await signIn('198.51.100.20', 'Visitor B browser');
    demoId = (await findUserByEmail(harness.app.context.database.db, DEMO_CREDENTIALS.email))!.id;
  });
  afterAll(async () => harness.close());

  it('says it is the demo account; other accounts are not', async () => {
    expect((await call('GET', '/api/v1/auth/session', visitor)).json().user).toMatchObject({ isDemo: true, plan: 'pro' });
    const { cookie } = await createUserWithSession(harness.app);
    expect((await call('GET', '/api/v1/auth/session', cookie)).json().user).toMatchObject({ isDemo: false });
  });

  it("lists only the caller's own session: no other visitor's address or browser, and theirs cannot be signed out", async () => {
    const response = await call('GET', '/api/v1/settings/sessions', visitor);
    expect(response.statusCode).toBe(200);
    const { sessions } = response.json();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ current: true, ip: '203.0.113.10', userAgent: 'Visitor A browser' });
    expect(response.body).not.toContain('198.51.100.20');
    expect(response.body).not.toContain('Visitor B browser');

    const revoke = await call('DELETE', `/api/v1/settings/sessions/${sessionPublicId(sha256(other.token))}`, visitor);
    expect(revoke.statusCode).toBe(404);
    expect((await call('GET', '/api/v1/auth/session', other.cookie)).json().isAuthenticated).toBe(true);
  });

  it('refuses a password change, even with the right current password, and the published pair keeps working', async () => {
    const response = await call('POST', '/api/v1/settings/password', visitor, {
      currentPassword: DEMO_CREDENTIALS.password,
      newPassword: 'Hijacked-Passw0rd-1',
      confirmPassword: 'Hijacked-Passw0rd-1',
    });
    expectRefused(response, DEMO_ACCOUNT_REFUSALS.password);
    expect(await verifyPassword((await demoRow())!.passwordHash!, DEMO_CREDENTIALS.password)).toBe(true);
    await signIn('203.0.113.11', 'Next visitor');
    expect((await call('GET', '/api/v1/auth/session', other.cookie)).json().isAuthenticated).toBe(true);
  });

  it('refuses an e-mail change and a new name (on their fields); saving them unchanged is fine', async () => {
    const moved = await call('PATCH', '/api/v1/settings/profile', visitor, {
      name: DEMO_CREDENTIALS.name,
      email: 'attacker@example.com',
      currentPassword: DEMO_CREDENTIALS.password,
    });
    expectRefused(moved, DEMO_ACCOUNT_REFUSALS.email);
    expect(moved.json().error.fields).toEqual({ email: DEMO_ACCOUNT_REFUSALS.email });
    expect((await demoRow())?.email).toBe(DEMO_CREDENTIALS.email);
    // The same address in other letters' case is the same mailbox, but not the address every visitor is shown.
    const recased = await call('PATCH', '/api/v1/settings/profile', visitor, {
      name: DEMO_CREDENTIALS.name,
      email: DEMO_CREDENTIALS.email.toUpperCase(),
    });
    expectRefused(recased, DEMO_ACCOUNT_REFUSALS.email);
    expect((await demoRow())?.email).toBe(DEMO_CREDENTIALS.email);

    const renamed = await call('PATCH', '/api/v1/settings/profile', visitor, { name: 'Rude Name', email: DEMO_CREDENTIALS.email });
    expectRefused(renamed, DEMO_ACCOUNT_REFUSALS.name);
    expect(renamed.json().error.fields).toEqual({ name: DEMO_ACCOUNT_REFUSALS.name });
    expect((await demoRow())?.name).toBe(DEMO_CREDENTIALS.name);

    const same = await call('PATCH', '/api/v1/settings/profile', visitor, { name: DEMO_CREDENTIALS.name, email: DEMO_CREDENTIALS.email });
    expect(same.statusCode).toBe(200);
    expect(same.json().user).toMatchObject({ name: DEMO_CREDENTIALS.name, email: DEMO_CREDENTIALS.email });
  });

  it('refuses setting or clearing the routing default (it would route every visitor); it stays readable', async () => {
    expectRefused(await call('PUT', '/api/v1/settings/routing', visitor, { policy: { strategy: 'cost' } }), DEMO_ACCOUNT_REFUSALS.routing);
    expectRefused(await call('PUT', '/api/v1/settings/routing', visitor, { policy: null }), DEMO_ACCOUNT_REFUSALS.routing);
    expect((await demoRow())?.routingPolicy).toBeNull();
    const read = await call('GET', '/api/v1/settings/routing', visitor);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ policy: null });
  });

  it('refuses deleting the account, even with the right password', async () => {
    const response = await call('POST', '/api/v1/settings/delete-account', visitor, {
      confirmation: 'DELETE',
      currentPassword: DEMO_CREDENTIALS.password,
    });
    expectRefused(response, DEMO_ACCOUNT_REFUSALS.deleteAccount);
    expect(await demoRow()).toBeDefined();
    expect((await call('GET', '/api/v1/auth/session', visitor)).json().isAuthenticated).toBe(true);
  });

  it('refuses saving and removing provider keys (the gateway would serve every visitor with them)', async () => {
    const save = await call('POST', '/api/v1/settings/provider-keys/openai', visitor, { key: OPENAI_KEY });
    expectRefused(save, DEMO_ACCOUNT_REFUSALS.providerKeys);
    expect(save.json().error.fields).toEqual({ key: DEMO_ACCOUNT_REFUSALS.providerKeys });
    expectRefused(await call('DELETE', '/api/v1/settings/provider-keys/openai', visitor), DEMO_ACCOUNT_REFUSALS.providerKeys);
    const stored = await harness.app.context.database.db.select().from(providerKeys).where(eq(providerKeys.userId, demoId));
    expect(stored).toEqual([]);
  });

  it('refuses changing, cancelling or resuming the plan; the plan stays as it was', async () => {
    const before = (await demoRow())?.plan;
    expectRefused(
      await call('POST', '/api/v1/billing/change-plan', visitor, { plan: 'free', period: 'monthly' }),
      DEMO_ACCOUNT_REFUSALS.billing,
    );
    expectRefused(await call('POST', '/api/v1/billing/cancel', visitor), DEMO_ACCOUNT_REFUSALS.billing);
    expectRefused(await call('POST', '/api/v1/billing/resume', visitor), DEMO_ACCOUNT_REFUSALS.billing);
    expect((await demoRow())?.plan).toBe(before);
    expect((await call('GET', '/api/v1/billing', visitor)).statusCode).toBe(200);
  });

  it("lists no support tickets, so visitors never read each other's (or their files)", async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      subject: 'My private question',
      priority: 'low',
      category: 'other',
      description: 'Visitor A asks.',
    }))
      form.append(key, value);
    form.append('attachments', new Blob([Buffer.from('%PDF-1.4\n%%EOF')], { type: 'application/pdf' }), 'private.pdf');
    const sent = await harness.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: form, headers: { cookie: visitor } });
    expect(sent.statusCode, sent.body).toBe(201);
    const attachmentId = sent.json().ticket.attachments[0].id as string;
    const listed = await call('GET', '/api/v1/support/tickets', other.cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().tickets).toEqual([]);
    expect((await call('GET', `/api/v1/support/attachments/${attachmentId}`, other.cookie)).statusCode).toBe(404);
  });

  it('refuses a live API key but creates a test key, which the sandbox answers', async () => {
    const live = await call('POST', '/api/v1/api-keys', visitor, { name: 'Spend it', environment: 'live', permissions: ['api'] });
    expectRefused(live, DEMO_ACCOUNT_REFUSALS.liveApiKey);
    const keys = await harness.app.context.database.db.select().from(apiKeys).where(eq(apiKeys.userId, demoId));
    expect(keys.filter((key) => key.name === 'Spend it')).toEqual([]);

    const test = await call('POST', '/api/v1/api-keys', visitor, { name: 'Try it', environment: 'test', permissions: ['api'] });
    expect(test.statusCode).toBe(201);
    const { key } = test.json();
    expect(key).toMatch(/^cc_test_sk_/);
    const completion = await harness.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello from the demo' }] }),
    });
    expect(completion.statusCode, completion.body).toBe(200);
    expect(completion.headers['x-conductor-provider']).toBe('sandbox');
    expect(completion.json().choices[0].message.content).toContain('Hello from the demo');
  });

  it("meters a model name it does not know as 'unknown', so no visitor's text shows on every visitor's dashboard", async () => {
    const created = await call('POST', '/api/v1/api-keys', visitor, { name: 'Model probe', environment: 'test', permissions: ['api'] });
    expect(created.statusCode).toBe(201);
    const typed = 'FREE PRO CREDITS - sign in at https://evil.example/demo';
    const refused = await harness.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${created.json().key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: typed, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(refused.statusCode).toBe(404);
    await harness.app.gateway.meter.flush();
    const rows = await harness.app.context.database.db.select().from(usageEvents).where(eq(usageEvents.userId, demoId));
    expect(rows.some((row) => row.model === typed)).toBe(false);
    expect(rows.some((row) => row.model === 'unknown' && row.statusCode === 404)).toBe(true);
    const activity = await call('GET', '/api/v1/observability/usage/activity?limit=20', other.cookie);
    expect(activity.statusCode).toBe(200);
    expect(activity.body).not.toContain('evil.example');
  });

  it("gives each visitor the sample keys and their own session's keys: never another visitor's", async () => {
    const mine = await call('POST', '/api/v1/api-keys', visitor, { name: 'Visitor A key', environment: 'test', permissions: ['api'] });
    const theirs = await call('POST', '/api/v1/api-keys', other.cookie, {
      name: 'Visitor B key',
      environment: 'test',
      permissions: ['api'],
    });
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    const theirId = theirs.json().apiKey.id as string;

    const listed = (await call('GET', '/api/v1/api-keys', visitor)).json().keys as Array<{
      id: string;
      name: string;
      lockedReason?: string;
    }>;
    const names = listed.map((key) => key.name);
    expect(names).toContain('Visitor A key');
    expect(names).not.toContain('Visitor B key');
    const samples = listed.filter((key) => key.lockedReason !== undefined);
    expect(samples.map((key) => key.name).sort()).toEqual(['Production', 'Staging']);
    expect(samples.every((key) => key.lockedReason === DEMO_ACCOUNT_REFUSALS.sampleKey)).toBe(true);
    expect(listed.find((key) => key.name === 'Visitor A key')?.lockedReason).toBeUndefined();

    // Another visitor's key is not found; a sample key is refused with the reason; one's own key can be changed.
    expect((await call('PATCH', `/api/v1/api-keys/${theirId}`, visitor, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/api-keys/${theirId}`, visitor)).statusCode).toBe(404);
    const sample = samples[0]!;
    expectRefused(await call('PATCH', `/api/v1/api-keys/${sample.id}`, visitor, { name: 'Gone' }), DEMO_ACCOUNT_REFUSALS.sampleKey);
    expectRefused(await call('DELETE', `/api/v1/api-keys/${sample.id}`, visitor), DEMO_ACCOUNT_REFUSALS.sampleKey);
    const rows = await harness.app.context.database.db.select().from(apiKeys).where(eq(apiKeys.userId, demoId));
    expect(rows.find((row) => row.id === theirId)).toMatchObject({ name: 'Visitor B key', revokedAt: null });
    expect(rows.find((row) => row.id === sample.id)).toMatchObject({ name: sample.name, revokedAt: null });
    const ownId = mine.json().apiKey.id as string;
    expect((await call('PATCH', `/api/v1/api-keys/${ownId}`, visitor, { name: 'Renamed A' })).json()).toMatchObject({ name: 'Renamed A' });
    expect((await call('DELETE', `/api/v1/api-keys/${ownId}`, visitor)).json()).toMatchObject({ status: 'revoked' });
    // Revoking again answers the same; the other visitor's key, once revoked by them, is still not this visitor's.
    expect((await call('DELETE', `/api/v1/api-keys/${ownId}`, visitor)).json()).toMatchObject({ id: ownId, status: 'revoked' });
    expect((await call('DELETE', `/api/v1/api-keys/${theirId}`, other.cookie)).json()).toMatchObject({ status: 'revoked' });
    expect((await call('DELETE', `/api/v1/api-keys/${theirId}`, visitor)).statusCode).toBe(404);
  });

  it("names another visitor's key in recent requests only as another visitor's", async () => {
    const created = await call('POST', '/api/v1/api-keys', other.cookie, {
      name: 'B private name',
      environment: 'test',
      permissions: ['api'],
    });
    const completion = await harness.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${created.json().key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from B' }] }),
    });
    expect(completion.statusCode).toBe(200);
    await harness.app.gateway.meter.flush();
    const seenByA = await call('GET', '/api/v1/observability/usage/activity?limit=50', visitor);
    expect(seenByA.statusCode).toBe(200);
    expect(seenByA.body).not.toContain('B private name');
    expect(seenByA.json().items.some((item: { apiKeyName: string | null }) => item.apiKeyName === DEMO_OTHER_VISITOR_KEY)).toBe(true);
    const seenByB = await call('GET', '/api/v1/observability/usage/activity?limit=50', other.cookie);
    expect(seenByB.json().items.some((item: { apiKeyName: string | null }) => item.apiKeyName === 'B private name')).toBe(true);
  });

  it("counts the active-key limit per visitor's session, and signing out revokes that session's keys", async () => {
    const third = await signIn('192.0.2.30', 'Visitor C browser');
    const created: string[] = [];
    for (let index = 0; index < MAX_ACTIVE_API_KEYS; index += 1) {
      const response = await call('POST', '/api/v1/api-keys', third.cookie, {
        name: `C ${index}`,
        environment: 'test',
        permissions: ['api'],
      });
      expect(response.statusCode, response.body).toBe(201);
      created.push(response.json().key as string);
    }
    expect(
      (await call('POST', '/api/v1/api-keys', third.cookie, { name: 'one more', environment: 'test', permissions: ['api'] })).statusCode,
    ).toBe(409);
    // Visitor C's full quota does not stop visitor A.
    expect(
      (await call('POST', '/api/v1/api-keys', visitor, { name: 'A again', environment: 'test', permissions: ['api'] })).statusCode,
    ).toBe(201);

    expect((await call('POST', '/api/v1/auth/logout', third.cookie)).statusCode).toBe(200);
    const rows = await harness.app.context.database.db.select().from(apiKeys).where(eq(apiKeys.userId, demoId));
    expect(rows.filter((row) => row.name.startsWith('C ')).every((row) => row.revokedAt !== null)).toBe(true);
    expect(rows.find((row) => row.name === 'A again')?.revokedAt).toBeNull();
    const refused = await harness.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${created[0]}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'after sign-out' }] }),
    });
    expect(refused.statusCode).toBe(401);
  });

  const createKey = (cookie: string, name: string) =>
    call('POST', '/api/v1/api-keys', cookie, { name, environment: 'test', permissions: ['api'] });
  const chat = (key: string, remoteAddress = '127.0.0.1') =>
    harness.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      remoteAddress,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
  const demoKeys = () => harness.app.context.database.db.select().from(apiKeys).where(eq(apiKeys.userId, demoId));

  it('gives a key no later expiry than its session, and ends it when a new sign-in replaces the session', async () => {
    const visitorD = await signIn('192.0.2.40', 'Visitor D browser');
    const created = await createKey(visitorD.cookie, 'D key');
    expect(created.statusCode).toBe(201);
    const [session] = (await harness.app.context.database.db.select().from(sessions)).filter(
      (row) => row.tokenHash === sha256(visitorD.token),
    );
    expect(created.json().apiKey.expiresAt).toBe(session!.expiresAt.toISOString());
    // A key asked to last longer still ends with the session.
    const longer = await call('POST', '/api/v1/api-keys', visitorD.cookie, {
      name: 'D long',
      environment: 'test',
      permissions: ['api'],
      expiresInDays: 90,
    });
    expect(longer.json().apiKey.expiresAt).toBe(session!.expiresAt.toISOString());

    // Signing in again from the same browser (a stale tab) replaces the session: its keys end too.
    const again = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', cookie: visitorD.cookie },
      payload: JSON.stringify({ email: DEMO_CREDENTIALS.email, password: DEMO_CREDENTIALS.password, remember: false }),
    });
    expect(again.statusCode).toBe(200);
    expect((await chat(created.json().key)).statusCode).toBe(401);
    expect((await chat(longer.json().key)).statusCode).toBe(401);
  });

  it('leaves no key of a session signed out while the key was being created', async () => {
    for (let round = 0; round < 8; round += 1) {
      const visitor = await signIn('192.0.2.50', `Racer ${round}`);
      await Promise.all([createKey(visitor.cookie, `race ${round}`), call('POST', '/api/v1/auth/logout', visitor.cookie)]);
      const session = sha256(visitor.token);
      const left = (await demoKeys()).filter((row) => row.createdSession === session && row.revokedAt === null);
      expect(left, `round ${round}`).toEqual([]);
    }
  });

  it('revokes, on the sweep, the keys of sessions that ended without a sign-out (idle or expired)', async () => {
    const visitorE = await signIn('192.0.2.60', 'Visitor E browser');
    const created = await createKey(visitorE.cookie, 'E key');
    expect((await chat(created.json().key)).statusCode).toBe(200);
    // Idle past a browser session's limit: the session no longer signs anyone in.
    await harness.app.context.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 9 * 60 * 60 * 1000) })
      .where(eq(sessions.tokenHash, sha256(visitorE.token)));
    expect(await sweepDemoVisitorKeys(harness.app.context)).toBeGreaterThanOrEqual(1);
    expect((await chat(created.json().key)).statusCode).toBe(401);
    // A visitor still signed in keeps theirs.
    const kept = await createKey(visitor, 'A kept');
    await sweepDemoVisitorKeys(harness.app.context);
    expect((await chat(kept.json().key)).statusCode).toBe(200);
  });

  it('deletes, on the sweep, visitor keys revoked more than a week ago; the samples and newer ones stay', async () => {
    const old = (await createKey(visitor, 'Long gone')).json().apiKey.id as string;
    const recent = (await createKey(visitor, 'Recently revoked')).json().apiKey.id as string;
    const { db } = harness.app.context.database;
    await db
      .update(apiKeys)
      .set({ revokedAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
      .where(eq(apiKeys.id, old));
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, recent));
    await sweepDemoVisitorKeys(harness.app.context);
    const ids = (await demoKeys()).map((row) => row.id);
    expect(ids).not.toContain(old);
    expect(ids).toContain(recent);
    const listed = (await call('GET', '/api/v1/api-keys', visitor)).json().keys as Array<{ lockedReason?: string }>;
    expect(listed.filter((key) => key.lockedReason !== undefined)).toHaveLength(2);
  });

  it('never lists a key from before keys had a session as a sample, nor names it in recent requests', async () => {
    const { createApiKey } = await import('../api-keys/api-keys.service.ts');
    const legacy = await createApiKey(
      harness.app.context.database.db,
      demoId,
      { name: 'Old visitor secret name', environment: 'test', permissions: ['api'] },
      Date.now(),
    );
    expect((await chat(legacy.key)).statusCode).toBe(200);
    await harness.app.gateway.meter.flush();
    await sweepDemoVisitorKeys(harness.app.context);
    const listed = await call('GET', '/api/v1/api-keys', visitor);
    expect(listed.body).not.toContain('Old visitor secret name');
    expect(listed.json().keys.filter((key: { lockedReason?: string }) => key.lockedReason).length).toBe(2);
    const activity = await call('GET', '/api/v1/observability/usage/activity?limit=50', visitor);
    expect(activity.body).not.toContain('Old visitor secret name');
    expect((await chat(legacy.key)).statusCode).toBe(401);
  });

  it("counts the per-minute limit per client address: one visitor cannot use up everyone's, nor get more by signing in again", async () => {
    const limit = limitsForPlan('pro').requestsPerMinute;
    const greedyAddress = '198.51.100.77';
    const greedy = await signIn(greedyAddress, 'Greedy browser');
    const greedyKey = (await createKey(greedy.cookie, 'greedy')).json().key as string;
    const statuses: number[] = [];
    for (let index = 0; index <= limit; index += 1) statuses.push((await chat(greedyKey, greedyAddress)).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
    expect(statuses.at(-1)).toBe(429);
    // A new session from the same address gets no new allowance.
    const again = await signIn(greedyAddress, 'Greedy browser, again');
    const againKey = (await createKey(again.cookie, 'greedy again')).json().key as string;
    expect((await chat(againKey, greedyAddress)).statusCode).toBe(429);
    // Another visitor, from elsewhere, is served.
    const politeKey = (await createKey(visitor, 'polite')).json().key as string;
    expect((await chat(politeKey, '203.0.113.10')).statusCode).toBe(200);
  });

  it('leaves other accounts as they were: live keys and provider keys', async () => {
    const { cookie } = await createUserWithSession(harness.app, { plan: 'pro' });
    expect((await call('POST', '/api/v1/api-keys', cookie, { name: 'Live', environment: 'live', permissions: ['api'] })).statusCode).toBe(
      201,
    );
    expect((await call('POST', '/api/v1/settings/provider-keys/openai', cookie, { key: OPENAI_KEY })).statusCode).toBe(200);
  });
});
