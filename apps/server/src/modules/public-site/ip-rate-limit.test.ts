import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { ipRateLimit } from './ip-rate-limit.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const requestFrom = (ip: string) => ({ ip, log: { warn: () => undefined } }) as unknown as FastifyRequest;

async function outcomes(limit: (request: FastifyRequest) => Promise<void>, ip: string, count: number) {
  const results: (number | 'ok')[] = [];
  for (let index = 0; index < count; index += 1) {
    try {
      await limit(requestFrom(ip));
      results.push('ok');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).retryAfterSeconds).toBeGreaterThan(0);
      results.push((error as AppError).statusCode);
    }
  }
  return results;
}

describe('per-IP rate limit', () => {
  it('allows the configured number of requests per window in memory, then answers 429, per address', async () => {
    const limit = ipRateLimit({ name: `test-${randomUUID()}`, points: 3, durationSeconds: 60, redis: null, redisPrefix: 'test:' });
    expect(await outcomes(limit, '198.51.100.1', 5)).toEqual(['ok', 'ok', 'ok', 429, 429]);
    expect(await outcomes(limit, '198.51.100.2', 1)).toEqual(['ok']);
  });

  it('counts every address of one IPv6 /64 as one client, and another /64 apart', async () => {
    const limit = ipRateLimit({ name: `test-${randomUUID()}`, points: 2, durationSeconds: 60, redis: null, redisPrefix: 'test:' });
    expect(await outcomes(limit, '2001:db8:1:2::1', 1)).toEqual(['ok']);
    expect(await outcomes(limit, '2001:db8:1:2:ffff:eeee:dddd:cccc', 1)).toEqual(['ok']);
    expect(await outcomes(limit, '2001:db8:1:2::3', 1)).toEqual([429]);
    expect(await outcomes(limit, '2001:db8:1:3::1', 1)).toEqual(['ok']);
  });

  describe('shared through Redis', () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    afterAll(async () => void (await redis.quit().catch(() => undefined)));

    it('counts across instances that share Redis', async () => {
      await redis.connect();
      const name = `test-${randomUUID()}`;
      const first = ipRateLimit({ name, points: 2, durationSeconds: 60, redis, redisPrefix: 'test:' });
      const second = ipRateLimit({ name, points: 2, durationSeconds: 60, redis, redisPrefix: 'test:' });
      expect(await outcomes(first, '203.0.113.9', 1)).toEqual(['ok']);
      expect(await outcomes(second, '203.0.113.9', 2)).toEqual(['ok', 429]);
      await redis.del(`test:rl:ip:${name}:203.0.113.9`);
    });

    it("keeps each deployment's counters under its own prefix", async () => {
      const name = `test-${randomUUID()}`;
      const mine = ipRateLimit({ name, points: 1, durationSeconds: 60, redis, redisPrefix: 'deployment-a:' });
      const theirs = ipRateLimit({ name, points: 1, durationSeconds: 60, redis, redisPrefix: 'deployment-b:' });
      expect(await outcomes(mine, '203.0.113.10', 2)).toEqual(['ok', 429]);
      expect(await outcomes(theirs, '203.0.113.10', 1)).toEqual(['ok']);
      const keys = [`deployment-a:rl:ip:${name}:203.0.113.10`, `deployment-b:rl:ip:${name}:203.0.113.10`];
      expect(await redis.exists(...keys)).toBe(2);
      expect(await redis.exists(`rl:ip:${name}:203.0.113.10`)).toBe(0);
      await redis.del(...keys);
    });
  });
});
