import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import type { Redis } from 'ioredis';
import { addressBucket } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';
import { consumeOrWait, createLimiter } from './limiter.ts';

/**
 * Sign-in throttling that does not hand a stranger a way to lock a user out:
 * - failures are counted per account *and* IP, so guessing one account's password from one
 *   place stops after a few tries while the owner, elsewhere, still signs in;
 * - failures per IP cap how many accounts one place may try (credential stuffing);
 * - all attempts per IP cap the argon2 work one place can make the server do.
 * An IPv6 client is counted by its /64 (one subscriber is routed a whole /64).
 */
export const LOGIN_LIMITS = {
  accountIpFailures: { points: 5, durationSeconds: 15 * 60 },
  ipFailures: { points: 30, durationSeconds: 60 * 60 },
  ipAttempts: { points: 200, durationSeconds: 60 },
} as const;

/** The failure points one attempt holds while its password is checked. */
export interface LoginReservation {
  /** The password was right: the account's failures from this address are cleared, the address's point given back. */
  succeeded(): Promise<void>;
  /** The check could not be made (an error, not a wrong password): both points are given back. */
  release(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Takes one failure point for the account from this address and one for the address *before*
   * the password is checked, so concurrent guesses cannot all pass a check made before any of
   * them is counted; a wrong password simply keeps them. Throws a 429 when either has none left.
   */
  reserve(email: string, ip: string): Promise<LoginReservation>;
}

const accountKey = (email: string, address: string) => `${email.trim().toLowerCase()}|${address}`;

function throttled(waitMs: number): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  return new AppError('rate_limited', AUTH_COPY.loginThrottled(Math.max(1, Math.ceil(seconds / 60))), { retryAfterSeconds: seconds });
}

/**
 * Each point is taken with one atomic increment (rate-limiter-flexible's INCRBY+EXPIRE Lua script
 * in Redis, a synchronous update in memory), so no two attempts can take the same last point.
 */
export function createLoginThrottle(redis: Redis | null, redisPrefix: string): LoginThrottle {
  const accountIp = createLimiter({ name: 'login-account-ip', redis, redisPrefix, ...LOGIN_LIMITS.accountIpFailures });
  const ipFailures = createLimiter({ name: 'login-ip-failures', redis, redisPrefix, ...LOGIN_LIMITS.ipFailures });
  const ipAttempts = createLimiter({ name: 'login-ip-attempts', redis, redisPrefix, ...LOGIN_LIMITS.ipAttempts });
  return {
    async reserve(email, ip) {
      const address = addressBucket(ip);
      const account = accountKey(email, address);
      const attemptsWait = await consumeOrWait(ipAttempts, address);
      if (attemptsWait > 0) throw throttled(attemptsWait);
      const accountWait = await consumeOrWait(accountIp, account);
      if (accountWait > 0) throw throttled(accountWait);
      const ipWait = await consumeOrWait(ipFailures, address);
      if (ipWait > 0) {
        // Refused unchecked, so not a failure for the account: its point goes back.
        await accountIp.reward(account, 1);
        throw throttled(ipWait);
      }
      return {
        async succeeded() {
          await Promise.all([accountIp.delete(account), ipFailures.reward(address, 1)]);
        },
        async release() {
          await Promise.all([accountIp.reward(account, 1), ipFailures.reward(address, 1)]);
        },
      };
    },
  };
}
