import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema/index.ts';
import { invalidateApiKeyCache } from '../../src/gateway/gateway.plugin.ts';
import {
  closeFakes,
  createAccountWithKey,
  deleteRedisPrefix,
  type Fakes,
  fake,
  type LiveGateway,
  manualClock,
  sdk,
  seedUsage,
  startFakes,
  startGateway,
  startPeer,
  upstreamEnv,
} from './gateway-helpers.ts';
import { eq } from 'drizzle-orm';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('limits shared through Redis by two instances', () => {
  const prefix = `conductor-test-${randomUUID()}:`;
  const clock = manualClock(Date.UTC(2025, 5, 15, 12, 0, 5));
  let fakes: Fakes;
  let first: LiveGateway;
  let second: Awaited<ReturnType<typeof startPeer>>;

  beforeAll(async () => {
    fakes = await startFakes(['openai']);
    const env = { ...upstreamEnv(fakes), REDIS_URL, GATEWAY_REDIS_PREFIX: prefix };
    first = await startGateway(env, { clock });
    second = await startPeer(
      first,
      { ...env, ...(first.app.context.env.DATABASE_URL ? { DATABASE_URL: first.app.context.env.DATABASE_URL } : {}) },
      clock,
    );
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await closeFakes(fakes);
    await deleteRedisPrefix(REDIS_URL, prefix);
  });

  it('enforces one requests-per-minute limit across both instances', async () => {
    const { key } = await createAccountWithKey(first.app, 'free', { environment: 'test' });
    const viaFirst = sdk(first.origin, key);
    const viaSecond = sdk(second.origin, key);
    for (let index = 0; index < 6; index += 1) await viaFirst.chat.completions.create({ model: 'gpt-4o', messages });
    for (let index = 0; index < 4; index += 1) await viaSecond.chat.completions.create({ model: 'gpt-4o', messages });
    await expect(viaSecond.chat.completions.create({ model: 'gpt-4o', messages })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const error = await viaFirst.chat.completions.create({ model: 'gpt-4o', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number((error as APIError).headers?.get('retry-after'))).toBeGreaterThan(0);
  });

  it('shares quota reservations: concurrent requests on both instances cannot overshoot', async () => {
    const { userId, key } = await createAccountWithKey(first.app, 'free');
    await seedUsage(first.app, userId, 9_400, new Date(clock.now()));
    // Slow answers keep all six in flight together, so only reservations decide.
    fake(fakes, 'openai').setBehaviour({ kind: 'ok', delayMs: 400 });
    const clients = [sdk(first.origin, key), sdk(second.origin, key)];
    const outcomes = await Promise.all(
      Array.from(
        { length: 6 },
        (_, index): Promise<string | null | undefined> =>
          (clients[index % 2] as OpenAI).chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 193 }).then(
            () => 'ok',
            (error: unknown) => (error as APIError).code,
          ),
      ),
    );
    // 600 tokens left, 200 held per request (7 prompt + 193): exactly three are admitted.
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(3);
    // The other three are refused for what is held in flight (a short wait), not for usage.
    expect(outcomes.filter((outcome) => outcome === 'rate_limit_exceeded')).toHaveLength(3);
    fake(fakes, 'openai').setBehaviour({ kind: 'ok' });
  });

  it('drops a revoked key from every instance’s cache through Redis', async () => {
    const { key, keyId } = await createAccountWithKey(first.app, 'pro');
    await sdk(first.origin, key).models.list();
    await sdk(second.origin, key).models.list();
    const listener = new Redis(REDIS_URL);
    const received = new Promise<string>((resolve) => listener.on('message', (_channel, message) => resolve(message)));
    await listener.subscribe(`${prefix}gateway:invalidate`);
    await first.app.context.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date(clock.now()) })
      .where(eq(apiKeys.id, keyId));
    invalidateApiKeyCache(keyId);
    expect(await received).toBe(`key ${keyId}`);
    await listener.quit();
    for (const origin of [first.origin, second.origin]) {
      const error = await sdk(origin, key)
        .models.list()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as APIError).code).toBe('api_key_revoked');
    }
  });

  it('counts one address’s refused keys across both instances, in Redis', async () => {
    const address = '198.51.100.77';
    const unknownFrom = (gateway: { app: LiveGateway['app'] }) =>
      gateway.app.inject({
        method: 'GET',
        url: '/v1/models',
        remoteAddress: address,
        headers: { authorization: `Bearer cc_live_sk_${randomBytes(24).toString('base64url')}` },
      });
    for (let index = 0; index < first.app.context.env.GATEWAY_KEY_LOOKUP_FAILURES; index += 1) {
      const response = await unknownFrom(index % 2 === 0 ? first : second);
      expect(response.statusCode).toBe(401);
    }
    for (const gateway of [first, second]) {
      const response = await unknownFrom(gateway);
      expect(response.statusCode).toBe(429);
      expect(response.json().error.code).toBe('too_many_invalid_keys');
    }
    const counter = new Redis(REDIS_URL);
    // One counter for the address in the shared store, holding both instances' refused keys plus
    // the two requests turned away past the limit (their points stay taken until the minute ends).
    const counted = await counter.get(`${prefix}gateway:key-failures:${address}`);
    await counter.quit();
    expect(Number(counted)).toBe(first.app.context.env.GATEWAY_KEY_LOOKUP_FAILURES + 2);
  });

  it('counts one wrong key once for an address, however many instances look it up', async () => {
    const address = '198.51.100.78';
    const wrongKey = `cc_live_sk_${randomBytes(24).toString('base64url')}`;
    for (let round = 0; round < 3; round += 1) {
      for (const gateway of [first, second]) {
        const response = await gateway.app.inject({
          method: 'GET',
          url: '/v1/models',
          remoteAddress: address,
          headers: { authorization: `Bearer ${wrongKey}` },
        });
        expect(response.json().error.code).toBe('invalid_api_key');
      }
      // Past the 5 s cache: each round is a new lookup on each instance.
      clock.advance(6_000);
    }
    const counter = new Redis(REDIS_URL);
    const counted = await counter.get(`${prefix}gateway:key-failures:${address}`);
    await counter.quit();
    expect(Number(counted)).toBe(1);
  });

  it('applies an invalidation published by another instance', async () => {
    const { key, keyId } = await createAccountWithKey(first.app, 'pro');
    await sdk(second.origin, key).models.list();
    await first.app.context.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date(clock.now()) })
      .where(eq(apiKeys.id, keyId));
    const publisher = new Redis(REDIS_URL);
    await publisher.publish(`${prefix}gateway:invalidate`, `key ${keyId}`);
    await publisher.quit();
    await expect
      .poll(
        async () =>
          sdk(second.origin, key)
            .models.list()
            .then(
              () => 'allowed',
              (error: unknown) => (error as APIError).status,
            ),
        { timeout: 2_000 },
      )
      .toBe(401);
  });
});
