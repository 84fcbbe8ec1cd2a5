import type { SsoProviderId } from '@conductor/shared/schemas/sso';
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
});
export type SsoTransaction = z.infer<typeof SsoTransaction> & { provider: SsoProviderId };

export const SSO_TRANSACTION_TTL_SECONDS = 10 * 60;
const MODEL = 'SsoTransaction';

/** Single-use storage: `take` removes the transaction as it reads it. */
export interface SsoTransactionStore {
  put(id: string, transaction: SsoTransaction): Promise<void>;
  take(id: string): Promise<SsoTransaction | undefined>;
}

/** Redis (shared, expiring by itself) when configured; else the oidc_store table, shared by every instance. */
export function createSsoTransactionStore(deps: { db: Database; redis: Redis | null; clock: Clock }): SsoTransactionStore {
  const { db, redis, clock } = deps;
  const parse = (value: unknown) => {
    const parsed = SsoTransaction.safeParse(value);
    return parsed.success ? (parsed.data as SsoTransaction) : undefined;
  };
  if (redis) {
    const key = (id: string) => `sso:tx:${id}`;
    return {
      async put(id, transaction) {
        await redis.set(key(id), JSON.stringify(transaction), 'EX', SSO_TRANSACTION_TTL_SECONDS);
      },
      async take(id) {
        const raw = await redis.getdel(key(id));
        return raw ? parse(JSON.parse(raw)) : undefined;
      },
    };
  }
  return {
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
}
