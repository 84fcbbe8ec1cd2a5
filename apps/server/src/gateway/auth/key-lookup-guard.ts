import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { blockedFor, consumeOrWait, createLimiter } from '../../modules/auth/limiter.ts';
import { errors, GatewayError } from '../gateway-error.ts';

/**
 * Key lookups one client address may see refused (unknown, revoked or expired keys) per minute
 * before its uncached keys are refused unread. A refused key is remembered for the cache's life
 * (5 s), so one wrong key costs at most 12 lookups a minute however often it is sent: only a
 * stream of different keys (guessing, or a flood meant to reach the database) gets near this.
 */
export const KEY_LOOKUP_FAILURES_PER_MINUTE = 60;

export interface KeyLookupGuardOptions {
  /** Shared Redis when configured, so every instance counts one address together. */
  redis: Redis | null;
  /** Prefix of the Redis counters (the gateway's `GATEWAY_REDIS_PREFIX`). */
  redisPrefix: string;
  log: FastifyBaseLogger;
  failuresPerMinute?: number;
}

/**
 * Bounds the database work one client address can cause with keys that are not cached: every
 * distinct unknown key is a lookup, so past `failuresPerMinute` refused lookups an address's
 * uncached keys get a 429 without one until its minute ends. Cached keys (valid or refused) are
 * answered from memory as before, and the authenticator reloads a key valid at its last lookup
 * without the guard, so a caller whose key is in use keeps working. If the counter store fails,
 * lookups go ahead (authentication never depends on Redis being up).
 */
export class KeyLookupGuard {
  readonly #limiter: RateLimiterAbstract;
  readonly #points: number;
  readonly #log: FastifyBaseLogger;

  constructor(options: KeyLookupGuardOptions) {
    this.#points = options.failuresPerMinute ?? KEY_LOOKUP_FAILURES_PER_MINUTE;
    this.#log = options.log;
    this.#limiter = createLimiter({
      name: 'gateway-key-failures',
      keyPrefix: `${options.redisPrefix}gateway:key-failures`,
      points: this.#points,
      durationSeconds: 60,
      redis: options.redis,
    });
  }

  /** Runs `lookup` for a request from `address` unless the address is refused; counts a refused lookup. */
  async run<T>(address: string, lookup: () => Promise<T>): Promise<T> {
    let waitMs = 0;
    try {
      waitMs = await blockedFor(this.#limiter, address, this.#points);
    } catch (error) {
      this.#log.warn({ err: error }, 'key lookup counter unavailable; lookup allowed');
    }
    if (waitMs > 0) throw errors.tooManyInvalidKeys(Math.ceil(waitMs / 1_000));
    try {
      return await lookup();
    } catch (error) {
      if (error instanceof GatewayError && error.status === 401) await this.#countFailure(address);
      throw error;
    }
  }

  async #countFailure(address: string): Promise<void> {
    try {
      await consumeOrWait(this.#limiter, address);
    } catch (error) {
      this.#log.warn({ err: error }, 'key lookup counter unavailable; failure not counted');
    }
  }
}
