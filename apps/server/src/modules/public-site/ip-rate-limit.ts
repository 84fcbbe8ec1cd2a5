import { MESSAGES } from '@conductor/shared';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { addressBucket } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';

export interface IpRateLimitOptions {
  /** Distinguishes this limit's counters from every other limit's (e.g. `waitlist`). */
  name: string;
  points: number;
  durationSeconds: number;
  /** Shared Redis when configured, so every instance counts together; else per-process memory. */
  redis: Redis | null;
  /** The deployment's prefix of every Redis key (GATEWAY_REDIS_PREFIX). */
  redisPrefix: string;
}

/**
 * A per-address limit (IPv6: per /64) for an unauthenticated endpoint, as an `onRequest` hook: requests count
 * before validation, so malformed floods are limited too. With Redis down, the in-memory
 * insurance limiter keeps counting instead of failing open or failing the request.
 */
export function ipRateLimit(options: IpRateLimitOptions) {
  const keyPrefix = `${options.redisPrefix}rl:ip:${options.name}`;
  const memory = new RateLimiterMemory({ keyPrefix, points: options.points, duration: options.durationSeconds });
  const limiter = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix,
        points: options.points,
        duration: options.durationSeconds,
        insuranceLimiter: memory,
      })
    : memory;

  return async function limitByIp(request: FastifyRequest): Promise<void> {
    try {
      // An IPv6 client is counted by its /64: it could otherwise take a new address per request.
      await limiter.consume(addressBucket(request.ip));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        throw new AppError('rate_limited', MESSAGES.rateLimited, {
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        });
      }
      request.log.warn({ err: rejection, limit: options.name }, 'rate limiter unavailable; request allowed');
    }
  };
}
