import { DEMO_CREDENTIALS } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { apiKeys, providerKeys, users } from '../../db/schema/index.ts';
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
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
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

  it('refuses an e-mail change (on the e-mail field) but saves a new name', async () => {
    const moved = await call('PATCH', '/api/v1/settings/profile', visitor, {
      name: DEMO_CREDENTIALS.name,
      email: 'attacker@example.com',
      currentPassword: DEMO_CREDENTIALS.password,
    });
    expectRefused(moved, DEMO_ACCOUNT_REFUSALS.email);
    expect(moved.json().error.fields).toEqual({ email: DEMO_ACCOUNT_REFUSALS.email });
    expect((await demoRow())?.email).toBe(DEMO_CREDENTIALS.email);

    const renamed = await call('PATCH', '/api/v1/settings/profile', visitor, { name: 'Demo Visitor', email: DEMO_CREDENTIALS.email });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().user).toMatchObject({ name: 'Demo Visitor', email: DEMO_CREDENTIALS.email });
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

  it('leaves other accounts as they were: live keys and provider keys', async () => {
    const { cookie } = await createUserWithSession(harness.app, { plan: 'pro' });
    expect((await call('POST', '/api/v1/api-keys', cookie, { name: 'Live', environment: 'live', permissions: ['api'] })).statusCode).toBe(
      201,
    );
    expect((await call('POST', '/api/v1/settings/provider-keys/openai', cookie, { key: OPENAI_KEY })).statusCode).toBe(200);
  });
});
