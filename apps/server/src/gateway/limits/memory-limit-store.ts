import { randomUUID } from 'node:crypto';
import { type AdmitRequest, type AdmitResult, type LimitStore, type Reservation, WINDOW_MS, windowStart } from './limit-store.ts';

interface RateEntry {
  window: number;
  count: number;
}

interface QuotaEntry {
  month: string;
  used: number;
  reserved: number;
}

/**
 * The single-process store (no REDIS_URL). After the one asynchronous load of the month's
 * usage, the check and the reservation run synchronously, so concurrent requests cannot
 * both take the last tokens.
 */
export class MemoryLimitStore implements LimitStore {
  readonly #rates = new Map<string, RateEntry>();
  readonly #quotas = new Map<string, QuotaEntry>();
  readonly #loading = new Map<string, Promise<QuotaEntry>>();

  /** Synchronous once the account's month is loaded (always, without a quota), so no promise per request. */
  admit(request: AdmitRequest): AdmitResult | Promise<AdmitResult> {
    if (!request.quota) return this.#admit(request, undefined);
    const current = this.#quotas.get(request.accountId);
    if (current && current.month === request.quota.month) return this.#admit(request, current);
    return this.#quotaEntry(request.accountId, request.quota.month, request.loadUsedTokens).then((entry) => this.#admit(request, entry));
  }

  /** The check and the reservation, in one synchronous step: concurrent requests cannot both take the last tokens. */
  #admit(request: AdmitRequest, quotaEntry: QuotaEntry | undefined): AdmitResult {
    const window = windowStart(request.now);
    let rate = this.#rates.get(request.accountId);
    if (!rate || rate.window !== window) {
      if (this.#rates.size > 50_000) this.#sweep(window);
      rate = { window, count: 0 };
      this.#rates.set(request.accountId, rate);
    }
    if (rate.count >= request.requestsPerMinute) return { ok: false, reason: 'rate', retryAfterMs: window + WINDOW_MS - request.now };

    let reservation: Reservation | null = null;
    if (request.quota && quotaEntry) {
      const remaining = request.quota.limit - quotaEntry.used - quotaEntry.reserved;
      if (remaining < request.quota.minimum) return { ok: false, reason: 'quota', used: quotaEntry.used, reserved: quotaEntry.reserved };
      const granted = Math.min(request.quota.desired, remaining);
      quotaEntry.reserved += granted;
      reservation = { id: randomUUID(), accountId: request.accountId, month: request.quota.month, granted };
    }
    rate.count += 1;
    return { ok: true, reservation };
  }

  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    const entry = this.#quotas.get(reservation.accountId);
    if (!entry || entry.month !== reservation.month) return;
    entry.reserved = Math.max(0, entry.reserved - reservation.granted);
    entry.used += usedTokens;
  }

  /** The month's usage, loaded once however many requests wait for it. */
  #quotaEntry(accountId: string, month: string, load: () => Promise<number>): Promise<QuotaEntry> {
    const key = `${accountId}\u0000${month}`;
    let pending = this.#loading.get(key);
    if (!pending) {
      pending = load()
        .then((used) => {
          const entry = { month, used, reserved: 0 };
          this.#quotas.set(accountId, entry);
          return entry;
        })
        .finally(() => this.#loading.delete(key));
      this.#loading.set(key, pending);
    }
    return pending;
  }

  #sweep(window: number): void {
    for (const [account, entry] of this.#rates) if (entry.window !== window) this.#rates.delete(account);
  }
}
