import type { AdmitRequest, AdmitResult, LimitStore, Reservation } from './limit-store.ts';
import { WINDOW_MS } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';

/** The shared store, which can also drop an account's month of usage so that it is loaded again. */
export interface SharedLimitStore extends LimitStore {
  /** Forgets the tokens counted for the account's month: the next admission reloads them from the usage table. */
  forgetUsage(accountId: string, month: string): Promise<void>;
}

export interface FailoverLimitStoreOptions {
  now(): number;
  /** Told of every failure of the shared store (the caller throttles its log). */
  onFailure(error: unknown): void;
  /** How long after a request ends the usage table is sure to hold its tokens (the meter's flush interval and a margin). */
  meteringLagMs: number;
}

/** Settlements the shared store refused, kept to be sent again: beyond this many the oldest are dropped (they expire there). */
const MAX_UNSETTLED = 10_000;

/**
 * The shared store (Redis) with a stand-in in each instance. While the shared store fails,
 * requests are admitted by an in-memory store: the rate limit counts in the instance (so N
 * instances allow up to N times the plan's rate) and the month's quota is loaded from the usage
 * table and held in the instance, so the plan limits still apply. The stand-in is kept until
 * the shared store has answered for a whole rate window, so a flapping connection does not
 * reset the counts.
 *
 * What the shared store missed is made good once it answers again: a settlement it refused is
 * sent again (settling is idempotent there), and for a request the stand-in admitted, the
 * account's shared usage count is dropped once the usage table holds the request's tokens, so
 * the next admission reloads it from there.
 */
export class FailoverLimitStore implements LimitStore {
  readonly #shared: SharedLimitStore;
  readonly #options: FailoverLimitStoreOptions;
  #standIn: MemoryLimitStore | null = null;
  #lastFailure = Number.NEGATIVE_INFINITY;
  /** The stand-in that admitted each of its reservations (a later stand-in would not know it). */
  readonly #owners = new WeakMap<Reservation, MemoryLimitStore>();
  readonly #unsettled: { reservation: Reservation; usedTokens: number }[] = [];
  /** Account months whose shared count missed tokens, by `account\0month`: forgotten once `due` has passed. */
  readonly #stale = new Map<string, { accountId: string; month: string; due: number }>();
  #reconciling = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(shared: SharedLimitStore, options: FailoverLimitStoreOptions) {
    this.#shared = shared;
    this.#options = options;
  }

  /** Whether a stand-in is admitting requests (the shared store failed within the last window). */
  get standingIn(): boolean {
    return this.#standIn !== null;
  }

  admit(request: AdmitRequest): AdmitResult | Promise<AdmitResult> {
    // The usage table failing is not the shared store failing: that error goes to the caller.
    let loadFailed = false;
    const loadUsedTokens = () =>
      request.loadUsedTokens().catch((error: unknown) => {
        loadFailed = true;
        throw error;
      });
    const failed = (error: unknown) => {
      if (loadFailed) throw error;
      return this.#admitLocally(request, error);
    };
    let result: AdmitResult | Promise<AdmitResult>;
    try {
      result = this.#shared.admit({ ...request, loadUsedTokens });
    } catch (error) {
      return failed(error);
    }
    if (result instanceof Promise) return result.then((answer) => this.#answered(request.now, answer), failed);
    return this.#answered(request.now, result);
  }

  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    const standIn = this.#owners.get(reservation);
    if (standIn) {
      await standIn.settle(reservation, usedTokens);
      const key = `${reservation.accountId}\u0000${reservation.month}`;
      this.#stale.set(key, {
        accountId: reservation.accountId,
        month: reservation.month,
        due: this.#options.now() + this.#options.meteringLagMs,
      });
      // Also without a later request: once the usage table holds these tokens (a failure leaves it to the next answer).
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.#reconcile();
      }, this.#options.meteringLagMs + 100).unref();
      return;
    }
    try {
      await this.#shared.settle(reservation, usedTokens);
    } catch (error) {
      if (this.#unsettled.length >= MAX_UNSETTLED) this.#unsettled.shift();
      this.#unsettled.push({ reservation, usedTokens });
      throw error;
    }
  }

  #admitLocally(request: AdmitRequest, error: unknown): AdmitResult | Promise<AdmitResult> {
    this.#lastFailure = Math.max(this.#lastFailure, request.now);
    this.#options.onFailure(error);
    this.#standIn ??= new MemoryLimitStore();
    const standIn = this.#standIn;
    const owned = (result: AdmitResult): AdmitResult => {
      if (result.ok && result.reservation) this.#owners.set(result.reservation, standIn);
      return result;
    };
    const result = standIn.admit(request);
    return result instanceof Promise ? result.then(owned) : owned(result);
  }

  #answered(now: number, result: AdmitResult): AdmitResult {
    if (this.#standIn !== null && now - this.#lastFailure >= WINDOW_MS) this.#standIn = null;
    if (this.#unsettled.length > 0 || this.#stale.size > 0) this.#reconcile();
    return result;
  }

  /** Sends again what the shared store refused and forgets the counts it missed; one pass at a time, stopping at a failure. */
  #reconcile(): void {
    if (this.#reconciling) return;
    this.#reconciling = true;
    void (async () => {
      try {
        while (this.#unsettled.length > 0) {
          const next = this.#unsettled[0];
          if (next) await this.#shared.settle(next.reservation, next.usedTokens);
          this.#unsettled.shift();
        }
        const now = this.#options.now();
        for (const [key, entry] of this.#stale) {
          if (entry.due > now) continue;
          await this.#shared.forgetUsage(entry.accountId, entry.month);
          // A settlement since then set a later due time: that one still has to wait for it.
          if (this.#stale.get(key) === entry) this.#stale.delete(key);
        }
      } catch {
        // The shared store failed again: what is left waits for the next answer.
      } finally {
        this.#reconciling = false;
      }
    })();
  }
}
