import type { SsoProviderId } from '@conductor/shared/schemas/sso';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { takeOidcRecord, upsertOidcRecord } from './oidc-store.repository.ts';

/** What the server remembers between sending a browser to its provider and the callback. */
export const SsoTransaction = z.object({
  provider: z.string(),
  state: z.string(),
  nonce: z.string(),
  codeChallenge: z.string(),
  redirectUri: z.string(),
  /** Set when a signed-in user signs in again to confirm a change: only this user may come back. */
  reauthUserId: z.string().optional(),
});
export type SsoTransaction = z.infer<typeof SsoTransaction> & { provider: SsoProviderId };

export const SSO_TRANSACTION_TTL_SECONDS = 10 * 60;
const MODEL = 'SsoTransaction';

/** Single-use storage: `take` removes the transaction as it reads it. */
export interface SsoTransactionStore {
  put(id: string, transaction: SsoTransaction): Promise<void>;
  take(id: string): Promise<SsoTransaction | undefined>;
}

/**
 * Redis (shared, expiring by itself) when configured; else the oidc_store table, shared by every
 * instance. With Redis configured but failing, the table stands in: a transaction that could not
 * be written to Redis is written there, and every take reads and removes both, so single sign-on
 * keeps working through a Redis outage and each transaction is still used once.
 */
export function createSsoTransactionStore(deps: {
  db: Database;
  redis: Redis | null;
  /** The deployment's prefix of every Redis key (GATEWAY_REDIS_PREFIX). */
  redisPrefix: string;
  clock: Clock;
  log?: FastifyBaseLogger;
}): SsoTransactionStore {
  const { db, redis, clock, log } = deps;
  const parse = (value: unknown) => {
    const parsed = SsoTransaction.safeParse(value);
    return parsed.success ? (parsed.data as SsoTransaction) : undefined;
  };
  const table: SsoTransactionStore = {
    async put(id, transaction) {
      const expiresAt = new Date(clock.now() + SSO_TRANSACTION_TTL_SECONDS * 1000);
      await upsertOidcRecord(db, { model: MODEL, id, payload: transaction, expiresAt });
    },
    async take(id) {
      const row = await takeOidcRecord(db, MODEL, id);
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= clock.now())) return undefined;
      return parse(row.payload);
    },
  };
  if (!redis) return table;
  const key = (id: string) => `${deps.redisPrefix}sso:tx:${id}`;
  return {
    async put(id, transaction) {
      try {
        await redis.set(key(id), JSON.stringify(transaction), 'EX', SSO_TRANSACTION_TTL_SECONDS);
      } catch (error) {
        log?.warn({ err: error }, 'Redis unavailable: the sign-on transaction is kept in the database');
        await table.put(id, transaction);
      }
    },
    async take(id) {
      // Taken from both stores at once: a write that timed out may still have reached Redis after
      // the transaction went to the table instead, and single use must hold for both copies.
      const [raw, stored] = await Promise.all([
        redis.getdel(key(id)).catch((error: unknown) => {
          log?.warn({ err: error }, 'Redis unavailable: the sign-on transaction is looked for in the database');
          return null;
        }),
        table.take(id),
      ]);
      return raw ? parse(JSON.parse(raw)) : stored;
    },
  };
}
