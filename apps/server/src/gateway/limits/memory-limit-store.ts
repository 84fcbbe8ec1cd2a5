import { randomUUID } from 'node:crypto';
import {
  type AdmitRequest,
  type AdmitResult,
  LATE_SETTLE_MS,
  type LimitStore,
  RESERVATION_TTL_MS,
  type Reservation,
  tokenCount,
  WINDOW_MS,
  windowStart,
} from './limit-store.ts';

interface RateEntry {
  window: number;
  count: number;
  /** How many of `count` were already handed on (`takeUnsharedRequests`). */
  shared: number;
}

interface QuotaEntry {
  month: string;
  used: number;
  reserved: number;
  /**
   * Reservations in flight by id: each stops holding tokens once, at its own settlement or when
   * it expires (`released`), as the Redis store's do. An expired one is kept for LATE_SETTLE_MS
   * so that its settlement, if it comes, still counts the tokens used (once).
   */
  holds: Map<string, { granted: number; expiresAt: number; released: boolean }>;
  /** `used` may lag the usage table (another store admitted meanwhile): loaded again at the next admission. */
  stale: boolean;
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
  /** Raised by `markQuotasStale`: a load started before it does not make an entry fresh. */
  #generation = 0;

  /** Synchronous once the account's month is loaded (always, without a quota), so no promise per request. */
  admit(request: AdmitRequest): AdmitResult | Promise<AdmitResult> {
    if (!request.quota) return this.#admit(request, undefined, false);
    const current = this.#quotas.get(request.accountId);
    if (current && current.month === request.quota.month && !current.stale) return this.#admit(request, current, false);
    return this.#quotaEntry(request.accountId, request.quota.month, request.loadUsedTokens).then((entry) =>
      this.#admit(request, entry, true),
    );
  }

  /** The check and the reservation, in one synchronous step: concurrent requests cannot both take the last tokens. */
  /** `late`: admitted after waiting for the month's usage, so `request.now` may be well behind the clock. */
  #admit(request: AdmitRequest, quotaEntry: QuotaEntry | undefined, late: boolean): AdmitResult {
    const window = windowStart(request.now);
    let rate = this.#rates.get(request.accountId);
    // A request admitted late (after a slow first load of the month, however slow) counts in the
    // account's current window rather than resetting it to an older one. On the synchronous path
    // `now` is the clock's: one that stepped back more than a window starts a new window (keeping
    // the newer one would hold the account to one window's requests until the clock caught up).
    if (!rate || window > rate.window || (!late && window < rate.window - WINDOW_MS)) {
      if (this.#rates.size > 50_000) this.#sweep(window);
      rate = { window, count: 0, shared: 0 };
      this.#rates.set(request.accountId, rate);
    }
    if (rate.count >= request.requestsPerMinute) {
      return { ok: false, reason: 'rate', retryAfterMs: Math.min(WINDOW_MS, rate.window + WINDOW_MS - request.now) };
    }

    let reservation: Reservation | null = null;
    if (request.quota && quotaEntry) {
      expireHolds(quotaEntry, request.now);
      const remaining = request.quota.limit - quotaEntry.used - quotaEntry.reserved;
      if (remaining < tokenCount(request.quota.minimum)) {
        return { ok: false, reason: 'quota', used: quotaEntry.used, reserved: quotaEntry.reserved };
      }
      const granted = Math.min(tokenCount(request.quota.desired), remaining);
      const id = randomUUID();
      quotaEntry.reserved += granted;
      quotaEntry.holds.set(id, { granted, expiresAt: request.now + RESERVATION_TTL_MS, released: false });
      reservation = {
        id,
        accountId: request.accountId,
        month: request.quota.month,
        granted,
        admittedAt: request.now,
        headroom: remaining - granted,
      };
    }
    rate.count += 1;
    return { ok: true, reservation };
  }

  /**
   * Releases the hold (unless it expired) and counts the tokens, once: a second settlement of the
   * same reservation does nothing.
   */
  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    const entry = this.#quotas.get(reservation.accountId);
    if (!entry || entry.month !== reservation.month) return;
    const held = entry.holds.get(reservation.id);
    if (held === undefined) return;
    entry.holds.delete(reservation.id);
    if (!held.released) entry.reserved = Math.max(0, entry.reserved - held.granted);
    entry.used += tokenCount(usedTokens);
  }

  /**
   * The requests admitted in `window` not handed on before, per account (a stand-in's admissions,
   * for the shared store's counters once it answers again), and marks them handed on.
   */
  takeUnsharedRequests(window: number): { accountId: string; count: number }[] {
    const taken: { accountId: string; count: number }[] = [];
    for (const [accountId, rate] of this.#rates) {
      if (rate.window !== window || rate.count <= rate.shared) continue;
      taken.push({ accountId, count: rate.count - rate.shared });
      rate.shared = rate.count;
    }
    return taken;
  }

  /**
   * Marks every account's quota count stale, keeping the rate windows and the holds of requests in
   * flight: the next admission with a quota loads the month's usage again (a stand-in whose counts
   * went stale while another store served).
   */
  async forgetQuota(accountId: string, month: string): Promise<void> {
    const entry = this.#quotas.get(accountId);
    // Loaded again, keeping its holds; a load never lowers the count (the table may lag it).
    if (entry && entry.month === month) entry.stale = true;
  }

  markQuotasStale(): void {
    this.#generation += 1;
    for (const entry of this.#quotas.values()) entry.stale = true;
  }

  /**
   * The month's usage, loaded once however many requests wait for it. A load into a month already
   * counted here (a stale count) keeps the holds and never lowers `used`: the table may not have
   * the tokens of requests settled here in the last second yet.
   */
  #quotaEntry(accountId: string, month: string, load: () => Promise<number>): Promise<QuotaEntry> {
    const generation = this.#generation;
    const key = `${accountId}\u0000${month}\u0000${generation}`;
    let pending = this.#loading.get(key);
    if (!pending) {
      pending = load()
        .then((loaded) => {
          const used = tokenCount(loaded);
          const fresh = generation === this.#generation;
          const current = this.#quotas.get(accountId);
          if (current && current.month === month) {
            current.used = Math.max(current.used, used);
            if (fresh) current.stale = false;
            return current;
          }
          const entry: QuotaEntry = { month, used, reserved: 0, holds: new Map(), stale: !fresh };
          // A load that finishes after a later month's (a request from just before midnight,
          // slow to load) serves its own request but does not replace the later month's entry.
          if (!current || current.month < month) this.#quotas.set(accountId, entry);
          return entry;
        })
        .finally(() => this.#loading.delete(key));
      this.#loading.set(key, pending);
    }
    return pending;
  }

  #sweep(window: number): void {
    for (const [account, entry] of this.#rates) if (entry.window < window) this.#rates.delete(account);
  }
}

function expireHolds(entry: QuotaEntry, now: number): void {
  for (const [id, hold] of entry.holds) {
    if (hold.expiresAt > now) continue;
    if (!hold.released) {
      hold.released = true;
      entry.reserved = Math.max(0, entry.reserved - hold.granted);
    }
    if (hold.expiresAt + LATE_SETTLE_MS <= now) entry.holds.delete(id);
  }
}
