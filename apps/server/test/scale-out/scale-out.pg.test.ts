/**
 * Scale-out: two server processes (A and B) on one PostgreSQL database and the real Redis,
 * configured alike (same secrets and PUBLIC_URL, separate DATA_DIRs) and reached by clients
 * that keep the public Host header, as behind a load balancer without sticky sessions. A
 * session, a Demo OIDC sign-in, API-key revocation, rate limits and token quotas must behave
 * as one system. Needs PostgreSQL and Redis: this file runs in the TEST_DATABASE=postgres pass.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { recordUsageEvents } from '../../src/modules/usage/usage.writer.ts';
import { rows } from '../fault/integrity.ts';
import { HttpClient } from '../fault/http-client.ts';
import { freePort, type ServerProcess, startServerProcess, tempDataDir } from '../fault/server-process.ts';
import { closeFakes, deleteRedisPrefix, type Fakes, startFakes, upstreamEnv } from '../gateway/gateway-helpers.ts';
import { createTestDatabase, type TestDatabase, usePostgres } from '../helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'Scale-Out-Harbour-77';
const messages = [{ role: 'user', content: 'Hello from the scale-out test' }];

if (!usePostgres) {
  throw new Error(
    'The scale-out suite needs PostgreSQL and Redis: run it with TEST_DATABASE=postgres (two processes cannot share PGlite).',
  );
}

describe('two instances on one PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let fakes: Fakes;
  let a: ServerProcess;
  let b: ServerProcess;
  let publicHost: string;
  const dataDirs = [tempDataDir('scale-a'), tempDataDir('scale-b')];
  const prefix = `conductor-test-${randomUUID().slice(0, 8)}:`;
  const clients: HttpClient[] = [];

  /** A browser behind the load balancer: public Host header, its own address, requests sent to A or B. */
  const browser = () => {
    const client = new HttpClient({ origin: a.origin, host: publicHost });
    clients.push(client);
    return client;
  };
  const on = (client: HttpClient, server: ServerProcess) => client.retarget(server.origin);

  beforeAll(async () => {
    database = await createTestDatabase();
    fakes = await startFakes(['openai']);
    const [portA, portB] = [await freePort(), await freePort()];
    publicHost = `127.0.0.1:${portA}`;
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL,
      GATEWAY_REDIS_PREFIX: prefix,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: `http://${publicHost}`,
      UPSTREAM_ALLOW_LOCAL: 'true',
      LOG_LEVEL: 'warn',
      ...upstreamEnv(fakes),
    };
    // Started together: migrations are serialised by the advisory lock.
    [a, b] = await Promise.all([
      startServerProcess({ port: portA, dataDir: dataDirs[0], env: shared }),
      startServerProcess({ port: portB, dataDir: dataDirs[1], env: shared }),
    ]);
    handle = await openDatabase({ url: database.url });
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await handle?.close();
    await closeFakes(fakes);
    await database?.drop();
    // Every key this file's instances wrote is under their prefix (GATEWAY_REDIS_PREFIX prefixes them all).
    await deleteRedisPrefix(REDIS_URL, prefix);
    for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true });
  });

  async function register(client: HttpClient, server: ServerProcess, label: string): Promise<string> {
    const email = `scale-${label}-${randomUUID().slice(0, 8)}@example.com`;
    const response = await on(client, server).post('/api/v1/auth/register', { name: 'Scale Out', email, password: PASSWORD });
    expect(response.status).toBe(201);
    return email;
  }

  it('a session created on A works on B, and signing out on B ends it on A', async () => {
    const client = browser();
    const email = await register(client, a, 'session');
    const cookie = `cc_session=${client.jar.get('cc_session')}`;
    const me = await on(client, b).get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.json<{ user: { email: string } }>().user.email).toBe(email);

    const created = await on(client, b).post('/api/v1/api-keys', { name: 'made on B', environment: 'test', permissions: ['api'] });
    expect(created.status).toBe(201);
    const listed = await on(client, a).get('/api/v1/api-keys');
    expect(listed.json<{ keys: { name: string }[] }>().keys.map((key) => key.name)).toEqual(['made on B']);

    expect((await on(client, b).post('/api/v1/auth/logout')).status).toBe(200);
    const after = await on(client, a).get('/api/v1/auth/me', { cookie });
    expect(after.status).toBe(401);
    expect((await on(client, b).get('/api/v1/auth/me', { cookie })).status).toBe(401);
  });

  it('a Demo OIDC sign-in started on A finishes on B (issuer state in the database)', async () => {
    const client = browser();
    const state = randomBytes(32).toString('base64url');
    const nonce = randomBytes(32).toString('base64url');
    const codeVerifier = randomBytes(48).toString('base64url');
    const { createHash } = await import('node:crypto');
    const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
    const publicOrigin = `http://${publicHost}`;

    const start = await on(client, a).post('/api/v1/auth/oidc/start', {
      provider: 'demo',
      state,
      nonce,
      codeChallenge,
      redirectUri: `${publicOrigin}/auth/callback`,
    });
    expect(start.status).toBe(200);
    const authorizationUrl = new URL(start.json<{ authorizationUrl: string }>().authorizationUrl);
    expect(authorizationUrl.origin).toBe(publicOrigin);

    const path = (url: URL) => `${url.pathname}${url.search}`;
    const authorize = await on(client, b).get(path(authorizationUrl));
    expect(authorize.status, authorize.text.slice(0, 200)).toBe(303);
    const interaction = new URL(String(authorize.headers.location), publicOrigin);
    expect(interaction.pathname).toMatch(/^\/oidc\/interaction\//);
    expect((await on(client, a).get(path(interaction))).status).toBe(200);
    const confirmed = await on(client, b).post(`${interaction.pathname}/confirm`);
    expect(confirmed.status).toBe(303);
    const resumed = await on(client, a).get(path(new URL(String(confirmed.headers.location), publicOrigin)));
    expect(resumed.status, resumed.text.slice(0, 200)).toBe(303);
    const callback = new URL(String(resumed.headers.location), publicOrigin);
    expect(callback.pathname).toBe('/auth/callback');
    expect(callback.searchParams.get('state')).toBe(state);

    const finished = await on(client, b).post('/api/v1/auth/oidc/callback', {
      provider: 'demo',
      code: callback.searchParams.get('code'),
      state,
      codeVerifier,
    });
    expect(finished.status, finished.text.slice(0, 300)).toBe(200);
    const user = finished.json<{ user: { authMethod: string; email: string } }>().user;
    expect(user.authMethod).toBe('oidc');
    const me = await on(client, a).get('/api/v1/auth/me');
    expect(me.json<{ user: { email: string } }>().user.email).toBe(user.email);

    const models = await rows<{ model: string }>(handle.db, sql`select distinct model from oidc_store`);
    expect(models.map((row) => row.model)).toEqual(expect.arrayContaining(['Session', 'Grant']));
  });

  it('A and B publish the same demo issuer JWKS (the signing keys live in the database, sealed)', async () => {
    const client = browser();
    const fromA = await on(client, a).get('/oidc/jwks');
    const fromB = await on(client, b).get('/oidc/jwks');
    expect(fromA.status).toBe(200);
    const keys = fromA.json<{ keys: { kid: string; d?: string }[] }>().keys;
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.d === undefined)).toBe(true);
    expect(fromB.json()).toEqual(fromA.json());
  });

  it('shares the per-minute rate limit: requests split across A and B hit one limit', async () => {
    const client = browser();
    await register(client, a, 'rate'); // free plan: 10 requests per minute
    const key = (await on(client, a).post('/api/v1/api-keys', { name: 'rate', environment: 'test', permissions: ['api'] })).json<{
      key: string;
    }>().key;
    const statuses: number[] = [];
    for (let index = 0; index < 14; index += 1) {
      const response = await on(client, index % 2 === 0 ? a : b).post(
        '/v1/chat/completions',
        { model: 'gpt-4o-mini', messages },
        { authorization: `Bearer ${key}` },
      );
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
  });

  it('shares the sign-in throttle: failures on A and B count together', async () => {
    const client = browser();
    const email = await register(client, a, 'throttle');
    const statuses: number[] = [];
    for (let index = 0; index < 7; index += 1) {
      const response = await on(client, index % 2 === 0 ? b : a).post('/api/v1/auth/login', { email, password: 'Wrong-Password-1' });
      statuses.push(response.status);
    }
    // Five failures per account and address, wherever they land; then both instances refuse.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('shares the monthly token quota: A and B together stop at the plan limit', async () => {
    const client = browser();
    // Free plan: the monthly quota (10,000 tokens) is a hard stop; 10 requests per minute.
    const email = await register(client, a, 'quota');
    const key = (await on(client, a).post('/api/v1/api-keys', { name: 'quota', environment: 'live', permissions: ['api'] })).json<{
      key: string;
    }>().key;
    const [account] = await rows<{ id: string }>(handle.db, sql`select id from users where email = ${email}`);
    if (!account) throw new Error('account not found');
    // 9,800 tokens already used this month: 200 are left for both instances together.
    await recordUsageEvents(handle.db, [
      {
        requestId: randomUUID(),
        userId: account.id,
        environment: 'live',
        provider: 'openai',
        model: 'gpt-4o-mini',
        promptTokens: 9_800,
        completionTokens: 0,
        statusCode: 200,
        createdAt: new Date(),
      },
    ]);
    let served = 0;
    let tokens = 0;
    let refusedBy: ServerProcess | undefined;
    for (let index = 0; index < 10 && !refusedBy; index += 1) {
      const server = index % 2 === 0 ? a : b;
      const response = await on(client, server).post(
        '/v1/chat/completions',
        { model: 'gpt-4o-mini', messages, max_tokens: 20 },
        { authorization: `Bearer ${key}` },
      );
      // Each call is sent as soon as the previous answer arrives, to the other instance. A call that
      // leaves too little for a like one settles before answering, so the next never finds the
      // quota still held by it ("quota busy"): any refusal is for the quota really spent.
      if (response.status === 200) {
        served += 1;
        tokens += response.json<{ usage: { total_tokens: number } }>().usage.total_tokens;
      } else {
        expect(response.status).toBe(429);
        expect(response.json<{ error: { code: string } }>().error.code, `after ${served} served: ${response.text}`).toBe('quota_exceeded');
        refusedBy = server;
      }
    }
    expect(refusedBy).toBeDefined();
    const other = refusedBy === a ? b : a;
    const again = await on(client, other).post(
      '/v1/chat/completions',
      { model: 'gpt-4o-mini', messages },
      { authorization: `Bearer ${key}` },
    );
    expect(again.status).toBe(429);
    expect(again.json<{ error: { code: string } }>().error.code).toBe('quota_exceeded');
    // One budget for both: what was served fits in the 200 tokens left (two separate counters would allow twice as
    // much). The last call may go past it by its own size: the gateway caps its max_tokens, but the fake upstream
    // answers its fixed 29-token completion whatever the cap.
    const perCall = tokens / served;
    expect(served).toBeGreaterThanOrEqual(3);
    expect(tokens).toBeLessThanOrEqual(200 + perCall);
    expect(tokens).toBeGreaterThan(200 - 2 * perCall - 40);
  });

  it('a key revoked on A is refused by B at once', async () => {
    const client = browser();
    await register(client, a, 'revoke');
    const created = (await on(client, a).post('/api/v1/api-keys', { name: 'revoke me', environment: 'test', permissions: ['api'] })).json<{
      key: string;
      apiKey: { id: string };
    }>();
    const callB = () =>
      on(client, b).post('/v1/chat/completions', { model: 'gpt-4o-mini', messages }, { authorization: `Bearer ${created.key}` });
    expect((await callB()).status).toBe(200); // now cached on B
    expect((await on(client, a).request(`/api/v1/api-keys/${created.apiKey.id}`, { method: 'DELETE' })).status).toBe(200);
    // The invalidation travels through Redis pub/sub: B refuses the key as soon as it arrives, well
    // before its cache entry would expire by itself (5 s). A busy host may take more than a few ms.
    // Every 250 ms: at most 9 calls in all, inside the Free plan's 10 a minute (a 429 would end it).
    const revokedAt = Date.now();
    let refused = await callB();
    while (refused.status === 200 && Date.now() - revokedAt < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      refused = await callB();
    }
    expect(refused.status).toBe(401);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('api_key_revoked');
  });
});
