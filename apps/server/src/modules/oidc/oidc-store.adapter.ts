import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  consumeOidcRecord,
  deleteExpiredOidcRecords,
  deleteOidcRecord,
  deleteOidcRecordsByGrant,
  findOidcRecord,
  type OidcStoreRow,
  upsertOidcRecord,
} from './oidc-store.repository.ts';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * oidc-provider's storage on the oidc_store table, so codes, sessions, grants and
 * interactions are shared by every instance and survive restarts (not process memory).
 */
export function oidcStoreAdapter(db: Database, clock: Clock) {
  let lastSweep = 0;
  const sweep = () => {
    const now = clock.now();
    if (now - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now;
    void deleteExpiredOidcRecords(db, new Date(now)).catch(() => undefined);
  };
  const toPayload = (row: OidcStoreRow | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt.getTime() <= clock.now()) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  };

  return class OidcStoreAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      sweep();
      const expiresAt = typeof expiresIn === 'number' ? new Date(clock.now() + expiresIn * 1000) : null;
      await upsertOidcRecord(db, { model: this.model, id, payload: payload as Record<string, unknown>, expiresAt });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return toPayload(await findOidcRecord(db, this.model, { id }));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return toPayload(await findOidcRecord(db, this.model, { uid }));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return toPayload(await findOidcRecord(db, this.model, { userCode }));
    }

    async consume(id: string): Promise<void> {
      await consumeOidcRecord(db, this.model, id, new Date(clock.now()));
    }

    async destroy(id: string): Promise<void> {
      await deleteOidcRecord(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteOidcRecordsByGrant(db, grantId);
    }
  };
}
