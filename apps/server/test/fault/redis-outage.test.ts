import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../../src/db/schema/index.ts';
import {
  closeFakes,
  createAccountWithKey,
  deleteRedisPrefix,
  type Fakes,
  type LiveGateway,
  manualClock,
  startFakes,
  startGateway,
  TEST_REDIS_URL,
  upstreamEnv,
} from '../gateway/gateway-helpers.ts';

/**
 * Redis goes away while the server runs, then comes back. The server sits behind a TCP proxy
 * to the machine's Redis that the test opens and closes. While Redis is away every request is
 * answered promptly and the limits count in the process (the plan limits too), and once it is
 * back the shared limits are used again, with the quota's count made good.
 */

/**
 * A TCP proxy to Redis on a fixed local port that can be stopped (connections refused) and
 * started again, or frozen: connections stay open but nothing passes (a Redis that stops answering).
 */
class RedisProxy {
  readonly #target = new URL(TEST_REDIS_URL);
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  port = 0;
  frozen = false;

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.#target.port || 6379), this.#target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (data: Buffer) => {
        if (!this.frozen) upstream.write(data);
      });
      upstream.on('data', (data: Buffer) => {
        if (!this.frozen) client.write(data);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (typeof address === 'object' && address) this.port = address.port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };
/** Far above a request's own time on a busy host, far below what waiting on reconnects cost (1.2–23 s). */
const PROMPT_MS = 1_000;

describe('Redis outage', () => {
  const prefix = `conductor-test-${randomUUID()}:`;
  const proxy = new RedisProxy();
  // Mid-minute, so that a test's requests fall in one rate window.
  const clock = manualClock(Date.UTC(2026, 10, 26, 12, 0, 5));
  let fakes: Fakes;
  let gateway: LiveGateway;
  let key: string;

  beforeAll(async () => {
    await proxy.start();
    fakes = await startFakes(['openai']);
    gateway = await startGateway(
      { ...upstreamEnv(fakes), REDIS_URL: `redis://127.0.0.1:${proxy.port}`, GATEWAY_REDIS_PREFIX: prefix, GATEWAY_USAGE_FLUSH_MS: '100' },
      { clock },
    );
    ({ key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' }));
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
    await proxy.stop();
    await deleteRedisPrefix(TEST_REDIS_URL, prefix);
  });

  const timed = async (send: () => Promise<{ statusCode: number }>) => {
    const started = performance.now();
    const { statusCode } = await send();
    return { statusCode, ms: performance.now() - started };
  };
  const complete = (apiKey = key) =>
    timed(() =>
      gateway.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { authorization: `Bearer ${apiKey}` }, payload: chat }),
    );
  const signIn = (email: string) =>
    timed(() => gateway.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: 'not-the-password-1' } }));
  const withRedis = async <T>(use: (redis: Redis) => Promise<T>): Promise<T> => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      return await use(redis);
    } finally {
      await redis.quit();
    }
  };
  const limitKeys = () => withRedis((redis) => redis.keys(`${prefix}limits:*`));

  /** `GET /v1/health`'s status and Redis check, and `conductor_redis_up` from `GET /metrics`. */
  const reported = async () => {
    const health = await gateway.app.inject({ method: 'GET', url: '/v1/health' });
    const metrics = await gateway.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    const up = /^conductor_redis_up (\d)$/m.exec(metrics.body)?.[1];
    return { code: health.statusCode, status: health.json().status, redis: health.json().checks.redis, up };
  };

  it('counts limits in Redis while it is up', async () => {
    expect((await complete()).statusCode).toBe(200);
    expect((await limitKeys()).length).toBeGreaterThan(0);
    expect(await reported()).toEqual({ code: 200, status: 'operational', redis: 'operational', up: '1' });
  });

  it('answers promptly while Redis is away, and uses it again when it is back', async () => {
    await proxy.stop();
    await expect.poll(() => gateway.app.context.redis?.status, { timeout: 5_000 }).not.toBe('ready');
    const answers: { statusCode: number; ms: number }[] = [];
    // Over ~3 s, so that ioredis's reconnection back-off has grown (what a request used to wait for).
    for (let index = 0; index < 6; index += 1) {
      answers.push(await complete());
      answers.push(await signIn(`nobody-${index}@example.com`));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(answers.map(({ statusCode }) => statusCode)).toEqual(Array.from({ length: 6 }, () => [200, 401]).flat());
    const slowest = Math.max(...answers.map(({ ms }) => ms));
    process.stdout.write(
      `[fault] redis outage: ${answers.length} gateway calls and sign-ins answered, slowest ${Math.round(slowest)} ms\n`,
    );
    expect(slowest).toBeLessThan(PROMPT_MS);
    // Degraded, not down: every instance still serves (a 503 would take them all out of a load balancer).
    expect(await reported()).toEqual({ code: 200, status: 'degraded', redis: 'degraded', up: '0' });
    // The sign-in throttle keeps counting, in the process: five wrong passwords, then a wait.
    const attempts: number[] = [];
    for (let index = 0; index < 6; index += 1) attempts.push((await signIn('someone@example.com')).statusCode);
    expect(attempts).toEqual([401, 401, 401, 401, 401, 429]);

    await deleteRedisPrefix(TEST_REDIS_URL, prefix);
    await proxy.start();
    await expect.poll(() => gateway.app.context.redis?.status, { timeout: 10_000, interval: 100 }).toBe('ready');
    expect((await complete()).statusCode).toBe(200);
    expect((await limitKeys()).length).toBeGreaterThan(0);
    expect(await reported()).toEqual({ code: 200, status: 'operational', redis: 'operational', up: '1' });
  }, 30_000);

  it('stops waiting on a Redis that stops answering', async () => {
    await expect.poll(() => gateway.app.context.redis?.status, { timeout: 10_000, interval: 100 }).toBe('ready');
    proxy.frozen = true;
    try {
      // The first calls wait out the command timeout (1 s); the connection is dropped after 1.5 s
      // of silence, and from then on nothing waits.
      await complete();
      await expect.poll(() => gateway.app.context.redis?.status, { timeout: 5_000, interval: 100 }).not.toBe('ready');
      const answers: { statusCode: number; ms: number }[] = [];
      for (let index = 0; index < 4; index += 1) answers.push(await complete());
      expect(answers.map(({ statusCode }) => statusCode)).toEqual([200, 200, 200, 200]);
      expect(Math.max(...answers.map(({ ms }) => ms))).toBeLessThan(PROMPT_MS);
    } finally {
      proxy.frozen = false;
    }
    await expect.poll(() => gateway.app.context.redis?.status, { timeout: 15_000, interval: 100 }).toBe('ready');
  }, 40_000);

  it('keeps the plan limits in the instance while Redis is away, and makes the shared quota good after', async () => {
    await expect.poll(() => gateway.app.context.redis?.status, { timeout: 15_000, interval: 100 }).toBe('ready');
    clock.advance(60_000);
    const { userId, key: freeKey } = await createAccountWithKey(gateway.app, 'free');
    const usedKey = `${prefix}limits:{${userId}}:used:${new Date(clock.now()).toISOString().slice(0, 7)}`;
    const sharedCount = () => withRedis((redis) => redis.get(usedKey));
    const table = async () => {
      const [row] = await gateway.app.context.database.db
        .select({ events: sql<number>`count(*)::int`, tokens: sql<number>`coalesce(sum(prompt_tokens + completion_tokens), 0)::int` })
        .from(usageEvents)
        .where(eq(usageEvents.userId, userId));
      return row ?? { events: 0, tokens: 0 };
    };
    expect((await complete(freeKey)).statusCode).toBe(200);
    await expect.poll(async () => Number(await sharedCount()), { timeout: 5_000, interval: 50 }).toBeGreaterThan(0);

    const outage = async () => {
      await proxy.stop();
      await expect.poll(() => gateway.app.context.redis?.status, { timeout: 5_000 }).not.toBe('ready');
    };
    const recovery = async () => {
      await proxy.start();
      await expect.poll(() => gateway.app.context.redis?.status, { timeout: 10_000, interval: 100 }).toBe('ready');
    };
    const events = (count: number) => expect.poll(async () => (await table()).events, { timeout: 5_000, interval: 50 }).toBe(count);

    clock.advance(1_000);
    await outage();
    // The Free plan's 10 requests a minute, counted in the instance from the outage's start.
    const during: number[] = [];
    for (let index = 0; index < 11; index += 1) during.push((await complete(freeKey)).statusCode);
    expect(during).toEqual([...Array.from({ length: 10 }, () => 200), 429]);
    const refused = await gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${freeKey}` },
      payload: chat,
    });
    expect(refused.json().error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await events(13);
    // Redis's count missed the ten requests the instance admitted.
    expect(Number(await sharedCount())).toBeLessThan((await table()).tokens);

    // Redis kept its data (a network partition): the instance adds what its stand-in admitted.
    await recovery();
    clock.advance(60_000);
    expect((await complete(freeKey)).statusCode).toBe(200);
    await events(14);
    await expect.poll(async () => Number(await sharedCount()), { timeout: 5_000, interval: 50 }).toBe((await table()).tokens);

    // Redis restarted empty: the count is loaded again from the usage table, which holds the
    // stand-in's requests (settled more than the metering lag before); they are not added on top.
    clock.advance(1_000);
    await outage();
    for (let index = 0; index < 2; index += 1) expect((await complete(freeKey)).statusCode).toBe(200);
    await deleteRedisPrefix(TEST_REDIS_URL, prefix);
    await events(16);
    clock.advance(2_000);
    await recovery();
    expect((await complete(freeKey)).statusCode).toBe(200);
    await events(17);
    await expect.poll(async () => Number(await sharedCount()), { timeout: 5_000, interval: 50 }).toBe((await table()).tokens);
    // And stays so: nothing missed is added later.
    clock.advance(2_000);
    expect((await complete(freeKey)).statusCode).toBe(200);
    await events(18);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Number(await sharedCount())).toBe((await table()).tokens);
  }, 60_000);
});
