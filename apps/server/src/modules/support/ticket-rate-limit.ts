import { MESSAGES } from '@conductor/shared';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { addressBucket } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';

/** New tickets per IP and hour: generous for people, a wall for scripts flooding the inbox. */
export const TICKETS_PER_HOUR = 30;

/**
 * A per-address (IPv6: per /64) `onRequest` limit on ticket creation, shared through Redis when
 * configured, under the deployment's key prefix (GATEWAY_REDIS_PREFIX).
 */
export function ticketRateLimit(redis: Redis | null, redisPrefix: string, points = TICKETS_PER_HOUR) {
  const keyPrefix = `${redisPrefix}rl:ip:support-tickets`;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: 3600 });
  const limiter = redis
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: 3600, insuranceLimiter: memory })
    : memory;
  return async function limitTickets(request: FastifyRequest): Promise<void> {
    try {
      // An IPv6 client is counted by its /64: it could otherwise take a new address per request.
      await limiter.consume(addressBucket(request.ip));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        request.log.warn({ err: rejection }, 'ticket rate limiter unavailable; request allowed');
        return;
      }
      throw new AppError('rate_limited', MESSAGES.rateLimited, {
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
      });
    }
  };
}
