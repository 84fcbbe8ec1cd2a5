import type { AdmitRequest, AdmitResult, LimitStore, Reservation } from './limit-store.ts';
import { tokenCount, WINDOW_MS } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';

/** The shared store, which can also be told of tokens used while it could not be reached. */
export interface SharedLimitStore extends LimitStore {
  /**
   * Adds tokens of a request admitted and settled elsewhere (at `admittedAt`) to the account's
   * month, unless the month's count was loaded from the usage table at or after `admittedAt` (it
   * may hold them already) or is not loaded (its load will read them). True when added.
   */
  addUsage(accountId: string, month: string, tokens: number, admittedAt: number): Promise<boolean>;
}

export interface FailoverLimitStoreOptions {
  /** Told of every failure of the shared store (the caller throttles its log). */
  onFailure(error: unknown): void;
  /** The first wait before sending again what the shared store missed; doubled after each failure, up to a minute. */
  retryMs?: number;
}

type Missed =
  | { kind: 'settle'; reservation: Reservation; usedTokens: number }
  | { kind: 'usage'; accountId: string; month: string; tokens: number; admittedAt: number };

/** What the shared store missed, kept to be sent: beyond this many the oldest are dropped. */
const MAX_MISSED = 10_000;
const MAX_RETRY_MS = 60_000;

/**
 * The shared store (Redis) with a stand-in in each instance. While the shared store fails,
 * requests are admitted by an in-memory store: the plan limits count in the instance (so N
 * instances allow up to N times the plan's rate, and each can grant what is left of a quota) and
 * the month's quota is loaded from the usage table. The stand-in's rate windows are kept until
 * the shared store has answered for a whole window, so a flapping connection does not reset
 * them; its quota counts are dropped as soon as the shared store answers (they go stale there).
 *
 * What the shared store missed is sent once it answers, in order, retried with back-off: a
 * settlement it refused (settling is idempotent there), and the tokens of each request the
 * stand-in admitted, added to the shared month count unless that count was loaded from the
 * usage table since the request was admitted (Redis restarted empty and reloaded: the table has
 * them, or will by the time the next load reads it).
 */
export class FailoverLimitStore implements LimitStore {
  readonly #shared: SharedLimitStore;
  readonly #onFailure: (error: unknown) => void;
  readonly #retryMs: number;
  #standIn: MemoryLimitStore | null = null;
  #lastFailure = Number.NEGATIVE_INFINITY;
  /** The shared store answered since the last failure (the stand-in's quota counts are dropped then). */
  #answeredSinceFailure = true;
  /** The stand-in that admitted each of its reservations, and when. */
  readonly #owners = new WeakMap<Reservation, { standIn: MemoryLimitStore; admittedAt: number }>();
  readonly #missed: Missed[] = [];
  #sending = false;
  #failedPasses = 0;
  #retry: NodeJS.Timeout | undefined;

  constructor(shared: SharedLimitStore, options: FailoverLimitStoreOptions) {
    this.#shared = shared;
    this.#onFailure = options.onFailure;
    this.#retryMs = options.retryMs ?? 1_000;
  }

  /** Whether a stand-in is kept (the shared store failed within the last window). */
  get standingIn(): boolean {
    return this.#standIn !== null;
  }

  /** How many settlements and usages wait to be sent to the shared store. */
  get missed(): number {
    return this.#missed.length;
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

  /** Never fails for the shared store: what it refuses is kept and sent again. */
  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    const owner = this.#owners.get(reservation);
    if (owner) {
      await owner.standIn.settle(reservation, usedTokens);
      this.#miss({
        kind: 'usage',
        accountId: reservation.accountId,
        month: reservation.month,
        tokens: tokenCount(usedTokens),
        admittedAt: owner.admittedAt,
      });
      this.#send();
      return;
    }
    try {
      await this.#shared.settle(reservation, usedTokens);
    } catch (error) {
      this.#onFailure(error);
      this.#miss({ kind: 'settle', reservation, usedTokens });
      this.#scheduleRetry();
    }
  }

  #admitLocally(request: AdmitRequest, error: unknown): AdmitResult | Promise<AdmitResult> {
    this.#lastFailure = Math.max(this.#lastFailure, request.now);
    this.#answeredSinceFailure = false;
    this.#onFailure(error);
    this.#standIn ??= new MemoryLimitStore();
    const standIn = this.#standIn;
    const owned = (result: AdmitResult): AdmitResult => {
      if (result.ok && result.reservation) this.#owners.set(result.reservation, { standIn, admittedAt: request.now });
      return result;
    };
    const result = standIn.admit(request);
    return result instanceof Promise ? result.then(owned) : owned(result);
  }

  #answered(now: number, result: AdmitResult): AdmitResult {
    if (this.#standIn !== null) {
      if (now - this.#lastFailure >= WINDOW_MS) this.#standIn = null;
      else if (!this.#answeredSinceFailure) this.#standIn.forgetQuotas();
    }
    this.#answeredSinceFailure = true;
    if (this.#missed.length > 0) this.#send();
    return result;
  }

  #miss(entry: Missed): void {
    if (this.#missed.length >= MAX_MISSED) this.#missed.shift();
    this.#missed.push(entry);
  }

  /**
   * Sends what the shared store missed, oldest first, one pass at a time. At a failure the pass
   * stops, the entry goes to the back (so one the store keeps refusing cannot hold up the rest)
   * and a retry is scheduled.
   */
  #send(): void {
    if (this.#sending) return;
    this.#sending = true;
    void (async () => {
      let entry: Missed | undefined;
      try {
        for (entry = this.#missed[0]; entry !== undefined; entry = this.#missed[0]) {
          if (entry.kind === 'settle') await this.#shared.settle(entry.reservation, entry.usedTokens);
          else await this.#shared.addUsage(entry.accountId, entry.month, entry.tokens, entry.admittedAt);
          if (this.#missed[0] === entry) this.#missed.shift();
        }
        this.#failedPasses = 0;
      } catch {
        if (entry && this.#missed[0] === entry) this.#missed.push(this.#missed.shift() as Missed);
        this.#failedPasses += 1;
      } finally {
        this.#sending = false;
      }
      if (this.#missed.length > 0) this.#scheduleRetry();
    })();
  }

  #scheduleRetry(): void {
    if (this.#retry) return;
    const delay = Math.min(MAX_RETRY_MS, this.#retryMs * 2 ** Math.min(this.#failedPasses, 16));
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#send();
    }, delay).unref();
  }
}
