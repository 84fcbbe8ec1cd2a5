import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { addressBucket } from '../../lib/client-address.ts';
import { createLimiter } from '../../modules/auth/limiter.ts';
import { errors } from '../gateway-error.ts';

const WINDOW_SECONDS = 60;

export interface KeyLookupGuardOptions {
  /** Shared Redis when configured, so every instance counts one address together. */
  redis: Redis | null;
  /** Prefix of the Redis counters (the gateway's `GATEWAY_REDIS_PREFIX`). */
  redisPrefix: string;
  log: FastifyBaseLogger;
  /**
   * Distinct keys one address may have refused (unknown, revoked or expired) per minute before
   * the keys it sends that were never seen to work are refused unread (GATEWAY_KEY_LOOKUP_FAILURES).
   */
  failuresPerMinute: number;
}

/**
 * Bounds the database work one client address can cause with keys that are not cached: every
 * distinct unknown key is a lookup. Each lookup an address starts holds one of its points for
 * the minute (taken atomically before the lookup, so concurrent requests cannot overshoot);
 * the point is given back unless the key is refused and is a key this address has not had
 * refused yet this minute, so sending one wrong key again and again, from any number of
 * instances, counts once. With no points left, the address's uncached keys get a 429 without a
 * lookup until its minute ends. Joining a lookup already running costs nothing and is not
 * guarded; the authenticator does not guard a key that was valid at its last lookup either.
 * With Redis unreachable, rate-limiter-flexible counts in this process instead (its insurance
 * limiter), like the other per-IP limits.
 */
export class KeyLookupGuard {
  readonly #failures: RateLimiterAbstract;
  /** One point per address and key: whether this key's refusal was already counted this minute. */
  readonly #refusedKeys: RateLimiterAbstract;
  readonly #points: number;
  readonly #log: FastifyBaseLogger;

  constructor(options: KeyLookupGuardOptions) {
    this.#points = options.failuresPerMinute;
    this.#log = options.log;
    const prefix = `${options.redisPrefix}gateway:key-failures`;
    this.#failures = createLimiter({
      name: 'gateway-key-failures',
      keyPrefix: prefix,
      points: this.#points,
      durationSeconds: WINDOW_SECONDS,
      redis: options.redis,
    });
    this.#refusedKeys = createLimiter({
      name: 'gateway-key-refused',
      keyPrefix: `${prefix}:keys`,
      points: 1,
      durationSeconds: WINDOW_SECONDS,
      redis: options.redis,
    });
  }

  /**
   * Runs `load` (the lookup of the key with this SHA-256) for a request from `address`, or
   * refuses it with a 429 when the address has no points left; `refused` tells whether the
   * lookup's answer refuses the key.
   */
  async lookup<T>(address: string | undefined, keyHash: string, load: () => Promise<T>, refused: (value: T) => boolean): Promise<T> {
    const bucket = addressBucket(address);
    const waitMs = await this.#take(bucket);
    if (waitMs > 0) throw errors.tooManyInvalidKeys(Math.max(1, Math.ceil(waitMs / 1_000)));
    let keep = false;
    try {
      const value = await load();
      keep = refused(value) && (await this.#firstRefusal(bucket, keyHash));
      return value;
    } finally {
      if (!keep) await this.#giveBack(bucket);
    }
  }

  /** Takes a point; the wait in ms when there was none to take (the first such request is logged). */
  async #take(bucket: string): Promise<number> {
    try {
      await this.#failures.consume(bucket);
      return 0;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        this.#log.warn({ err: rejection }, 'key lookup counter unavailable; lookup allowed');
        return 0;
      }
      // The refused request's point stays taken (the window ends all the same): the first one past
      // the limit is the one that finds exactly one point too many.
      if (rejection.consumedPoints === this.#points + 1) {
        this.#log.warn({ address: bucket, limit: this.#points }, 'too many refused API keys from one address: its uncached keys wait');
      }
      return rejection.msBeforeNext;
    }
  }

  async #giveBack(bucket: string): Promise<void> {
    try {
      await this.#failures.reward(bucket, 1);
    } catch (error) {
      this.#log.warn({ err: error }, 'key lookup counter unavailable; point not given back');
    }
  }

  /** True the first time this key is refused for this address in the window. */
  async #firstRefusal(bucket: string, keyHash: string): Promise<boolean> {
    try {
      await this.#refusedKeys.consume(`${bucket}|${keyHash}`);
      return true;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) this.#log.warn({ err: rejection }, 'key lookup counter unavailable');
      return false;
    }
  }
}
