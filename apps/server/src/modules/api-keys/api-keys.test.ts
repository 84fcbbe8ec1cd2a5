import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { apiKeys } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { jsonHeaders, settableClock } from '../portal/portal-testing.ts';
import { findApiKeyByHash, isApiKeyActive } from './api-key.ts';
import { MAX_ACTIVE_API_KEYS } from '@conductor/shared/schemas/api-keys';
import { createApiKey, toApiKeyView } from './api-keys.service.ts';

const clock = settableClock('2026-03-15T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('API keys', () => {
  let harness: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    harness = await createTestApp({}, { clock });
    alice = (await createUserWithSession(harness.app)).cookie;
    bob = (await createUserWithSession(harness.app)).cookie;
  });
  afterAll(async () => harness.close());

  const create = (cookie: string, payload: unknown) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: jsonHeaders(cookie), payload: JSON.stringify(payload) });
  const list = async (cookie: string) =>
    (await harness.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: { cookie } })).json().keys;

  it('creates a key, shows it once, and stores only its hash', async () => {
    const response = await create(alice, { name: 'Backend', environment: 'live', permissions: ['api'] });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { key, apiKey } = response.json();
    expect(key).toMatch(/^cc_live_sk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({
      name: 'Backend',
      environment: 'live',
      permissions: ['api'],
      status: 'active',
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(apiKey.masked).toBe(`${key.slice(0, 16)}...${key.slice(-4)}`);

    const [row] = await harness.app.context.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row?.keyHash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const listed = await list(alice);
    expect(listed).toEqual([apiKey]);
    expect(JSON.stringify(listed)).not.toContain(key);
  });

  it('creates test keys with admin access and an expiry', async () => {
    const response = await create(alice, { name: 'CI', environment: 'test', permissions: ['api', 'admin', 'api'], expiresInDays: 30 });
    expect(response.statusCode).toBe(201);
    const { key, apiKey } = response.json();
    expect(key.startsWith('cc_test_sk_')).toBe(true);
    expect(apiKey.permissions).toEqual(['api', 'admin']);
    expect(apiKey.expiresAt).toBe(new Date(clock.now() + 30 * DAY_MS).toISOString());
    const row = await findApiKeyByHash(harness.app.context.database.db, sha256(key));
    if (!row) throw new Error('key row missing');
    const later = clock.now() + 31 * DAY_MS;
    expect(isApiKeyActive(row, clock.now())).toBe(true);
    expect(isApiKeyActive(row, later)).toBe(false);
    expect(toApiKeyView(row, later).status).toBe('expired');
  });

  it('renames and revokes; a revoked key no longer passes the gateway check', async () => {
    const { key, apiKey } = (await create(alice, { name: 'Old name', environment: 'live', permissions: ['api'] })).json();
    const renamed = await harness.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${apiKey.id}`,
      headers: jsonHeaders(alice),
      payload: JSON.stringify({ name: '  New name  ' }),
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('New name');

    const revoked = await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${apiKey.id}`, headers: { cookie: alice } });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ status: 'revoked', revokedAt: new Date(clock.now()).toISOString() });
    const row = await findApiKeyByHash(harness.app.context.database.db, sha256(key));
    expect(row && isApiKeyActive(row, clock.now())).toBe(false);
    // Revoking again is harmless.
    const again = await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${apiKey.id}`, headers: { cookie: alice } });
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('revoked');
  });

  it('refuses to show, rename or revoke another user’s key', async () => {
    const { apiKey } = (await create(alice, { name: 'Private', environment: 'live', permissions: ['api'] })).json();
    expect(await list(bob)).toEqual([]);
    const rename = await harness.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${apiKey.id}`,
      headers: jsonHeaders(bob),
      payload: JSON.stringify({ name: 'Stolen' }),
    });
    expect(rename.statusCode).toBe(404);
    const revoke = await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${apiKey.id}`, headers: { cookie: bob } });
    expect(revoke.statusCode).toBe(404);
    const mine = (await list(alice)).find((item: { id: string }) => item.id === apiKey.id);
    expect(mine).toMatchObject({ name: 'Private', status: 'active' });
  });

  it('refuses bad input with 400 and clear messages', async () => {
    const cases: [unknown, string | undefined][] = [
      [{ name: '', environment: 'live', permissions: ['api'] }, 'Key name is required'],
      [{ name: '   ', environment: 'live', permissions: ['api'] }, 'Key name is required'],
      [{ name: 'x'.repeat(65), environment: 'live', permissions: ['api'] }, 'Key name must be at most 64 characters'],
      [{ name: 'ok', environment: 'prod', permissions: ['api'] }, undefined],
      [{ name: 'ok', environment: 'live', permissions: [] }, 'Select at least one permission'],
      // Admin Access alone: the gateway refuses every call such a key makes (403), so it is not created.
      [{ name: 'ok', environment: 'live', permissions: ['admin'] }, 'API Access is required: without it the key cannot call the API'],
      // A lone surrogate would be stored as U+FFFD, a name other than the one sent.
      [{ name: 'bad\ud800name', environment: 'live', permissions: ['api'] }, 'Key name contains an invalid character'],
      [{ name: 'ok', environment: 'live', permissions: ['root'] }, undefined],
      [{ name: 'ok', environment: 'live', permissions: ['api'], expiresInDays: 0 }, undefined],
      [{ name: 'ok', environment: 'live', permissions: ['api'], expiresInDays: 1000 }, undefined],
      [{ name: 'ok', environment: 'live', permissions: ['api'], owner: 'someone' }, undefined],
      [{ environment: 'live', permissions: ['api'] }, 'Key name is required'],
      [
        { name: 'bad\u0000name', environment: 'live', permissions: ['api'] },
        'Key name must be readable text: no control, direction-changing or only invisible characters',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await create(alice, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      if (message) expect(response.json().error.message).toContain(message);
    }
    const badRename = await harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/api-keys/key_x',
      headers: jsonHeaders(alice),
      payload: JSON.stringify({ name: '' }),
    });
    expect(badRename.statusCode).toBe(400);
    const { apiKey: named } = (await create(alice, { name: 'Named', environment: 'test', permissions: ['api'] })).json();
    const surrogateRename = await harness.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${named.id}`,
      headers: jsonHeaders(alice),
      payload: JSON.stringify({ name: 'half \udc00 emoji' }),
    });
    expect(surrogateRename.statusCode).toBe(400);
    expect(surrogateRename.json().error.message).toContain('Key name contains an invalid character');
    expect((await list(alice)).find((item: { id: string }) => item.id === named.id).name).toBe('Named');
    const longId = await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${'x'.repeat(65)}`, headers: { cookie: alice } });
    expect(longId.statusCode).toBe(400);
    for (const id of ['%00', 'key%20x', '..%2F..']) {
      const odd = await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: { cookie: alice } });
      expect(odd.statusCode, id).toBe(400);
    }
    const unknown = await harness.app.inject({ method: 'DELETE', url: '/api/v1/api-keys/key_missing', headers: { cookie: alice } });
    expect(unknown.statusCode).toBe(404);
  });

  it('works at the gateway at once, and stops working the moment it is revoked', async () => {
    const { key, apiKey } = (await create(alice, { name: 'Gateway', environment: 'test', permissions: ['api'] })).json();
    const call = () =>
      harness.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }),
      });
    const ok = await call();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().choices[0].message.content).toBeTruthy();
    await harness.app.gateway.meter.flush();
    const activity = (
      await harness.app.inject({ method: 'GET', url: '/api/v1/observability/usage/activity', headers: { cookie: alice } })
    ).json();
    expect(activity.items[0]).toMatchObject({ apiKeyName: 'Gateway', environment: 'test', status: 'success' });
    expect((await list(alice)).find((item: { id: string }) => item.id === apiKey.id).lastUsedAt).not.toBeNull();

    // The key is now in the gateway's cache; revoking must still refuse the very next call.
    expect(
      (await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${apiKey.id}`, headers: { cookie: alice } })).statusCode,
    ).toBe(200);
    const refused = await call();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.type).toBe('authentication_error');
  });

  it('allows at most 50 active keys, also when creates arrive at once', async () => {
    const { cookie, user } = await createUserWithSession(harness.app);
    for (let index = 0; index < MAX_ACTIVE_API_KEYS - 1; index += 1) {
      expect((await create(cookie, { name: `key ${index}`, environment: 'test', permissions: ['api'] })).statusCode).toBe(201);
    }
    expect((await create(cookie, { name: 'the 50th', environment: 'live', permissions: ['api'] })).statusCode).toBe(201);
    const refused = await create(cookie, { name: 'the 51st', environment: 'live', permissions: ['api'] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('You can have at most 50 active keys. Revoke one you no longer use.');
    expect(await list(cookie)).toHaveLength(MAX_ACTIVE_API_KEYS);

    // Creates at once, straight to the service (several database connections on PostgreSQL):
    // with one key revoked, exactly one of them gets the free place.
    const [first] = await list(cookie);
    await harness.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${first.id}`, headers: { cookie } });
    // Warm connections (on PostgreSQL, a pool opens them on demand: cold, the first create finishes before the rest connect).
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => harness.app.context.database.db.execute(sql`select pg_sleep(0.05)`)));
    const racing = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((index) =>
        createApiKey(
          harness.app.context.database.db,
          user.id,
          { name: `racing ${index}`, environment: 'live', permissions: ['api'] },
          clock.now(),
        ),
      ),
    );
    expect(racing.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((await list(cookie)).filter((key: { revokedAt: string | null }) => key.revokedAt === null)).toHaveLength(MAX_ACTIVE_API_KEYS);
  });

  it('needs a session', async () => {
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/api-keys' })).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'POST', url: '/api/v1/api-keys', payload: {} })).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'PATCH', url: '/api/v1/api-keys/x', payload: {} })).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'DELETE', url: '/api/v1/api-keys/x' })).statusCode).toBe(401);
  });
});
