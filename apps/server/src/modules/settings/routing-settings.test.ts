import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, deleteRedisPrefix, type LiveGateway, startGateway, TEST_REDIS_URL } from '../../../test/gateway/gateway-helpers.ts';
import { createUserWithSession } from '../../../test/helpers.ts';
import { users } from '../../db/schema/index.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';

const URL = '/api/v1/settings/routing';
const FALLBACK = {
  strategy: 'fallback',
  targets: [
    { provider: 'anthropic', model: 'claude-3-5-haiku' },
    { provider: 'openai', model: 'gpt-4o-mini' },
  ],
};

describe('routing settings', () => {
  let gateway: LiveGateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => gateway?.close());

  const put = (cookie: string, payload: unknown, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'PUT',
      url: URL,
      headers: { ...jsonHeaders(cookie), ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const get = (cookie: string) => gateway.app.inject({ method: 'GET', url: URL, headers: { cookie } });

  it('has no account default until one is saved, then reads it back and clears it', async () => {
    const { cookie, user } = await createUserWithSession(gateway.app);
    expect((await get(cookie)).json()).toEqual({ policy: null });

    const saved = await put(cookie, { policy: FALLBACK });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ policy: FALLBACK });
    expect((await get(cookie)).json()).toEqual({ policy: FALLBACK });
    const [row] = await gateway.app.context.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.routingPolicy).toEqual(FALLBACK);

    const cleared = await put(cookie, { policy: null });
    expect(cleared.json()).toEqual({ policy: null });
    expect((await get(cookie)).json()).toEqual({ policy: null });
  });

  it('accepts weights with Load balance, upstream model names and a strategy without targets', async () => {
    const { cookie } = await createUserWithSession(gateway.app);
    const loadbalance = {
      strategy: 'loadbalance',
      targets: [
        { provider: 'openai', model: 'gpt-4o', weight: 3 },
        { provider: 'azure', model: 'gpt-4o', weight: 1 },
      ],
    };
    expect((await put(cookie, { policy: loadbalance })).json()).toEqual({ policy: loadbalance });
    expect((await put(cookie, { policy: { strategy: 'cost' } })).json()).toEqual({ policy: { strategy: 'cost' } });
    const single = { strategy: 'single', targets: [{ provider: 'google', model: 'gemini' }] };
    expect((await put(cookie, { policy: single })).json()).toEqual({ policy: single });
  });

  it('only touches the caller’s own account', async () => {
    const alice = await createUserWithSession(gateway.app);
    const bob = await createUserWithSession(gateway.app);
    await put(alice.cookie, { policy: FALLBACK });
    expect((await get(bob.cookie)).json()).toEqual({ policy: null });
    await put(bob.cookie, { policy: { strategy: 'cost' } });
    expect((await get(alice.cookie)).json()).toEqual({ policy: FALLBACK });
  });

  it('refuses bad policies with a 400 that says what is wrong, and keeps the saved one', async () => {
    const { cookie } = await createUserWithSession(gateway.app);
    await put(cookie, { policy: FALLBACK });
    const openai = (model: string, weight?: number) => ({ provider: 'openai', model, ...(weight === undefined ? {} : { weight }) });
    const cases: [unknown, string][] = [
      [
        { strategy: 'fallback', targets: [openai('claude-3-5-sonnet'), openai('gpt-4o')] },
        'Target 1 (openai/claude-3-5-sonnet) is not a model served by OpenAI.',
      ],
      [
        { strategy: 'fallback', targets: [openai('gpt-4o'), { provider: 'azure', model: 'gpt-5-ultra' }] },
        'Target 2 (azure/gpt-5-ultra) is not a model served by Azure OpenAI.',
      ],
      [
        { strategy: 'fallback', targets: [openai('gpt-4-turbo'), openai('gpt-4')] },
        'Target 2 (openai/gpt-4) repeats target 1: list each model once.',
      ],
      [
        { strategy: 'fallback', targets: [openai('gpt-4o', 2), openai('gpt-4o-mini')] },
        'Target 1 has a weight, but weights apply only to Load balance',
      ],
      [{ strategy: 'single', targets: [openai('gpt-4o'), openai('gpt-4o-mini')] }, 'Single model uses one target'],
      [{ strategy: 'fallback', targets: [openai('gpt-4o')] }, 'Fallback needs at least two targets'],
      [{ strategy: 'loadbalance', targets: [openai('gpt-4o', 1), openai('gpt-4o-mini', 0)] }, 'policy.targets.1.weight'],
      [{ strategy: 'cost', targets: [] }, 'List at least one target'],
      [{ strategy: 'cost', targets: Array.from({ length: 9 }, () => openai('gpt-4o')) }, 'at most 8 targets'],
      [{ strategy: 'fastest' }, 'policy.strategy'],
      [{ strategy: 'fallback', targets: [{ provider: 'acme', model: 'x' }, openai('gpt-4o')] }, 'policy.targets.0.provider'],
      [{ strategy: 'fallback', targets: [openai(''), openai('gpt-4o')] }, 'policy.targets.0.model'],
      [{ strategy: 'cost', extra: true }, 'Unrecognized key: "extra"'],
      ['fallback', 'policy must be a routing policy, or null for no account default.'],
    ];
    for (const [policy, message] of cases) {
      const response = await put(cookie, { policy });
      expect(response.statusCode, JSON.stringify(policy)).toBe(400);
      expect(response.json().error.message, JSON.stringify(policy)).toContain(message);
    }
    for (const body of [{}, { policy: FALLBACK, strategy: 'cost' }, '[]', 'not json']) {
      const response = await put(cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await get(cookie)).json()).toEqual({ policy: FALLBACK });
  });

  it('needs a session, and refuses a cross-site save', async () => {
    expect((await gateway.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    const anonymous = await gateway.app.inject({ method: 'PUT', url: URL, payload: { policy: null } });
    expect(anonymous.statusCode).toBe(401);
    const { cookie } = await createUserWithSession(gateway.app);
    const crossSite = await put(cookie, { policy: FALLBACK }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect((await get(cookie)).json()).toEqual({ policy: null });
  });

  it('routes a live gateway request by the account default at once, and the header still overrides it', async () => {
    const { cookie, user } = await createUserWithSession(gateway.app);
    const { key } = await addKey(gateway.app, user.id, { environment: 'test' });
    const chat = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Which route?' }] }),
      });
      expect(response.status).toBe(200);
      return { route: response.headers.get('x-conductor-route'), model: response.headers.get('x-conductor-model') };
    };

    // The first call caches the key's principal with no default; the save must replace it.
    expect(await chat()).toEqual({ route: 'single (default); openai/gpt-4o-mini=sandbox', model: 'gpt-4o-mini' });
    expect((await put(cookie, { policy: FALLBACK })).statusCode).toBe(200);
    expect(await chat()).toEqual({ route: 'fallback (account); anthropic/claude-3-5-haiku=sandbox', model: 'claude-3-5-haiku' });
    expect(await chat({ 'x-conductor-routing': 'single' })).toEqual({
      route: 'single (header); openai/gpt-4o-mini=sandbox',
      model: 'gpt-4o-mini',
    });

    await put(cookie, { policy: null });
    expect(await chat()).toEqual({ route: 'single (default); openai/gpt-4o-mini=sandbox', model: 'gpt-4o-mini' });
  });
});

describe('routing settings with Redis', () => {
  const prefix = `conductor-test-routing-${randomUUID()}:`;
  let gateway: LiveGateway;

  beforeAll(async () => {
    gateway = await startGateway({ REDIS_URL: TEST_REDIS_URL, GATEWAY_REDIS_PREFIX: prefix });
  });
  afterAll(async () => {
    await gateway?.close();
    await deleteRedisPrefix(TEST_REDIS_URL, prefix);
  });

  it('tells every other instance to drop the account’s cached keys', async () => {
    const { cookie, user } = await createUserWithSession(gateway.app);
    const listener = new Redis(TEST_REDIS_URL);
    try {
      const received = new Promise<string>((resolve) => listener.on('message', (_channel, message) => resolve(message)));
      await listener.subscribe(`${prefix}gateway:invalidate`);
      const response = await gateway.app.inject({
        method: 'PUT',
        url: URL,
        headers: jsonHeaders(cookie),
        payload: JSON.stringify({ policy: { strategy: 'cost' } }),
      });
      expect(response.statusCode).toBe(200);
      expect(await received).toBe(`account ${user.id}`);
    } finally {
      await listener.quit();
    }
  });
});
