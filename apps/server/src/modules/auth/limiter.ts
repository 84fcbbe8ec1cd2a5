import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export type LimiterOptions = {
  /** Distinguishes this limit's counters from every other one. */
  name: string;
  points: number;
  durationSeconds: number;
  /** Shared Redis when configured, so every instance counts together; else per-process memory. */
  redis: Redis | null;
} & (
  | {
      /** The deployment's prefix of every Redis key (GATEWAY_REDIS_PREFIX): the counters are `<redisPrefix>rl:auth:<name>:…`. */
      redisPrefix: string;
      keyPrefix?: undefined;
    }
  | {
      /** The counters' whole key prefix, the deployment's prefix included. */
      keyPrefix: string;
      redisPrefix?: undefined;
    }
);

/** A counter in Redis (shared) or memory; with Redis down, an in-memory insurance limiter keeps counting. */
export function createLimiter(options: LimiterOptions): RateLimiterAbstract {
  const keyPrefix = options.keyPrefix ?? `${options.redisPrefix}rl:auth:${options.name}`;
  const memory = new RateLimiterMemory({ keyPrefix, points: options.points, duration: options.durationSeconds });
  if (!options.redis) return memory;
  return new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    insuranceLimiter: memory,
  });
}

/** Consumes a point; returns the wait in ms when the limit is exhausted, 0 when the call may go on. */
export async function consumeOrWait(limiter: RateLimiterAbstract, key: string, points = 1): Promise<number> {
  try {
    await limiter.consume(key, points);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1_000, rejection.msBeforeNext);
    throw rejection;
  }
}

/** How long `key` must wait, in ms, when it has used all `points` of its window; 0 when it may go on. Consumes nothing. */
export async function blockedFor(limiter: RateLimiterAbstract, key: string, points: number): Promise<number> {
  const current = await limiter.get(key);
  return current && current.consumedPoints >= points ? Math.max(1_000, current.msBeforeNext) : 0;
}
