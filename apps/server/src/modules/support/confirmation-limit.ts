import type { Redis } from 'ioredis';
import { consumeOrWait, createLimiter } from '../auth/limiter.ts';

/**
 * Confirmations mailed to one address per hour, per form: the address is the sender's claim,
 * not verified, and the per-address limits on the forms count senders, not recipients; without
 * this, many senders could fill a stranger's inbox with our confirmations.
 */
export const CONFIRMATIONS_PER_RECIPIENT = { points: 3, durationSeconds: 60 * 60 } as const;

/** Whether a confirmation may be mailed to `recipient` now (takes one of its points when it may). */
export type ConfirmationAllowance = (recipient: string) => Promise<boolean>;

/**
 * Counted in Redis when configured (shared by every instance, under the deployment's key prefix
 * GATEWAY_REDIS_PREFIX), else in memory; `name` keeps each form's counters apart.
 */
export function confirmationAllowance(name: string, redis: Redis | null, redisPrefix: string): ConfirmationAllowance {
  const limiter = createLimiter({ name, redis, keyPrefix: `${redisPrefix}rl:recipient:${name}`, ...CONFIRMATIONS_PER_RECIPIENT });
  return async (recipient) => {
    try {
      return (await consumeOrWait(limiter, recipient.trim().toLowerCase())) === 0;
    } catch {
      // Both stores failed (Redis and its in-memory insurance): the message is saved, its mail goes out.
      return true;
    }
  };
}
