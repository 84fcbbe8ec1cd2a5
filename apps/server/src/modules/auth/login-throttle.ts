import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import type { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import { blockedFor, consumeOrWait, createLimiter } from './limiter.ts';

/**
 * Sign-in throttling that does not hand a stranger a way to lock a user out:
 * - failures are counted per account *and* IP, so guessing one account's password from one
 *   place stops after a few tries while the owner, elsewhere, still signs in;
 * - failures per IP cap how many accounts one place may try (credential stuffing);
 * - all attempts per IP cap the argon2 work one place can make the server do.
 */
export const LOGIN_LIMITS = {
  accountIpFailures: { points: 5, durationSeconds: 15 * 60 },
  ipFailures: { points: 30, durationSeconds: 60 * 60 },
  ipAttempts: { points: 200, durationSeconds: 60 },
} as const;

export interface LoginThrottle {
  /** Throws a 429 when this attempt must not be tried. */
  assertAllowed(email: string, ip: string): Promise<void>;
  recordFailure(email: string, ip: string): Promise<void>;
  recordSuccess(email: string, ip: string): Promise<void>;
}

const accountKey = (email: string, ip: string) => `${email.trim().toLowerCase()}|${ip}`;

function throttled(waitMs: number): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  return new AppError('rate_limited', AUTH_COPY.loginThrottled(Math.max(1, Math.ceil(seconds / 60))), { retryAfterSeconds: seconds });
}

export function createLoginThrottle(redis: Redis | null): LoginThrottle {
  const accountIp = createLimiter({ name: 'login-account-ip', redis, ...LOGIN_LIMITS.accountIpFailures });
  const ipFailures = createLimiter({ name: 'login-ip-failures', redis, ...LOGIN_LIMITS.ipFailures });
  const ipAttempts = createLimiter({ name: 'login-ip-attempts', redis, ...LOGIN_LIMITS.ipAttempts });
  return {
    async assertAllowed(email, ip) {
      const attemptsWait = await consumeOrWait(ipAttempts, ip);
      if (attemptsWait > 0) throw throttled(attemptsWait);
      const accountWait = await blockedFor(accountIp, accountKey(email, ip), LOGIN_LIMITS.accountIpFailures.points);
      if (accountWait > 0) throw throttled(accountWait);
      const ipWait = await blockedFor(ipFailures, ip, LOGIN_LIMITS.ipFailures.points);
      if (ipWait > 0) throw throttled(ipWait);
    },
    async recordFailure(email, ip) {
      await Promise.all([consumeOrWait(accountIp, accountKey(email, ip)), consumeOrWait(ipFailures, ip)]);
    },
    async recordSuccess(email, ip) {
      await accountIp.delete(accountKey(email, ip));
    },
  };
}
