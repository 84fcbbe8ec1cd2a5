import { randomUUID } from 'node:crypto';
import type { AdmitRequest, AdmitResult, ForgetScope, LimitStore, Reservation } from './limit-store.ts';
import { tokenCount, WINDOW_MS, windowStart } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';

/** The shared store, which can also be told of tokens used while it could not be reached. */
export interface SharedLimitStore extends LimitStore {
  /**
   * Adds tokens of requests admitted and settled elsewhere to the account's month, unless the
   * month's count was loaded from the usage table at or after `inTableBy` (the time by which their
   * usage events are surely in the table: the count holds them). A count that is not loaded keeps
   * them for its load, which takes them in unless it read the table after `inTableBy`. Sent again
   * with the same `id` (a reply lost), they count once.
   */
  addUsage(accountId: string, month: string, tokens: number, inTableBy: number, id: string): Promise<boolean | 'pending'>;
  /**
   * Settles as LimitStore does; `inTableBy` is when the request's usage event is surely in the
   * usage table (the store's own clock decides without it). A settlement sent again passes the
   * time of its first attempt, as usage does.
   */
  settle(reservation: Reservation, usedTokens: number, inTableBy?: number): Promise<void>;
  /** Adds requests admitted elsewhere to the account's counter of the rate window starting at `window`. */
  addRequests(accountId: string, window: number, count: number): Promise<void>;
  /** Drops the hold of reservation `id` if the store has it (an admission whose answer was lost); else nothing. */
  dropHold(accountId: string, month: string, id: string): Promise<void>;
  /** Whether an error is the store refusing a command (it would refuse it again), not failing to answer. */
  refuses(error: unknown): boolean;
  /** Whether a failed command may have run all the same (sent, and its answer lost). */
  mayHaveRun(error: unknown): boolean;
}

export interface FailoverLimitStoreOptions {
  /** Told of every failure of the shared store (the caller throttles its log). */
  onFailure(error: unknown): void;
  /** Told when something the shared store missed is given up (the queue was full, or the store refused it), with its tokens. */
  onDropped(reason: 'full' | 'refused', tokens: number): void;
  /** The clock settlements are timed with (the one admissions pass as `now`). */
  now(): number;
  /** How long after a request settles its usage event is surely in the usage table (the metering flush interval and a margin). */
  meteringLagMs: number;
  /** The first wait before sending again what the shared store missed; doubled after each failure, up to a minute. */
  retryMs?: number;
}

interface MissedSettle {
  kind: 'settle';
  reservation: Reservation;
  usedTokens: number;
  /**
   * When its usage event is surely in the usage table, from when the request finished: sent later
   * (Redis restarted empty meanwhile), a count loaded since then holds its tokens already.
   */
  inTableBy: number;
  refusals: number;
}

interface MissedUsage {
  kind: 'usage';
  /** Names the tokens in the shared store; they never change once sent (a sent entry takes in no more). */
  id: string;
  accountId: string;
  month: string;
  tokens: number;
  inTableBy: number;
  refusals: number;
}

/**
 * An account change the shared store missed: its count is to be read from the table again. Sending
 * it twice (a reply lost) costs a load, nothing more: the load keeps the count set aside.
 */
interface MissedForget {
  kind: 'forget';
  accountId: string;
  month: string;
  refusals: number;
}

/** An admission the shared store may have run although it failed: its hold, if any, is to go. */
interface MissedHold {
  kind: 'hold';
  accountId: string;
  month: string;
  id: string;
  refusals: number;
}

type Missed = MissedSettle | MissedUsage | MissedHold | MissedForget;

/** What the shared store missed, kept to be sent: beyond this many, holds to drop go first, then the oldest. */
const MAX_MISSED = 10_000;
const MAX_RETRY_MS = 60_000;
/** An entry the shared store refuses this many times is dropped. */
const MAX_REFUSALS = 3;

/**
 * The shared store (Redis) with a stand-in in each instance. While the shared store fails,
 * requests are admitted by an in-memory store: the plan limits count in the instance (so N
 * instances allow up to N times the plan's rate, and each can grant what is left of a quota; once
 * the shared store answers, the minute's admissions are added to its rate counters) and
 * the month's quota is loaded from the usage table. The stand-in's rate windows are kept until
 * the shared store has answered for a whole window, so a flapping connection does not reset
 * them; its quota counts are marked stale as soon as the shared store answers (requests admitted
 * there are not in them) and loaded again at its next admission, keeping its holds.
 *
 * What the shared store missed is sent once it answers, in order, retried with back-off: a
 * settlement it refused (settling is idempotent there), with the time its usage event is surely
 * in the usage table from when it was first sent, and the tokens of the requests the
 * stand-in admitted, merged per account, month and second, with the time by which their usage
 * events are surely in the usage table (`meteringLagMs` after settling). The shared store adds
 * them unless its count was loaded from the table since then (Redis restarted empty and
 * reloaded: the table had them). The holds of admissions it may have run although they
 * failed (sent, answer lost: see `mayHaveRun`), dropped by the id this store gave each
 * reservation; until then they keep their tokens (at most 15 minutes). And the forgets of account
 * changes made here (`forgetQuota`), so the shared count is read from the table again.
 */
export class FailoverLimitStore implements LimitStore {
  readonly #shared: SharedLimitStore;
  readonly #onFailure: (error: unknown) => void;
  readonly #onDropped: (reason: 'full' | 'refused', tokens: number) => void;
  readonly #now: () => number;
  readonly #meteringLagMs: number;
  readonly #retryMs: number;
  #standIn: MemoryLimitStore | null = null;
  #lastFailure = Number.NEGATIVE_INFINITY;
  /** The shared store answered since the last failure (the stand-in's quota counts are marked stale then). */
  #answeredSinceFailure = true;
  /** The stand-in that admitted each of its reservations. */
  readonly #owners = new WeakMap<Reservation, MemoryLimitStore>();
  readonly #missed: Missed[] = [];
  /** Usage entries still waiting, by account, month and second: one more settlement adds to its entry. */
  readonly #merging = new Map<string, MissedUsage>();
  #sending = false;
  /** The entry being sent (kept when the queue overflows meanwhile). */
  #inFlight: Missed | undefined;
  #failedPasses = 0;
  #retry: NodeJS.Timeout | undefined;

  constructor(shared: SharedLimitStore, options: FailoverLimitStoreOptions) {
    this.#shared = shared;
    this.#onFailure = options.onFailure;
    this.#onDropped = options.onDropped;
    this.#now = options.now;
    this.#meteringLagMs = options.meteringLagMs;
    this.#retryMs = options.retryMs ?? 1_000;
  }

  /** Whether a stand-in is kept (the shared store failed within the last window). */
  get standingIn(): boolean {
    return this.#standIn !== null;
  }

  /** How many entries (settlements, usages merged per account and second, holds to drop) wait to be sent to the shared store. */
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
    // Named here: an admission that fails once sent may have run, and its hold is then dropped by this id.
    const reservationId = request.quota ? randomUUID() : undefined;
    const failed = (error: unknown) => {
      if (loadFailed) throw error;
      if (request.quota && reservationId && this.#shared.mayHaveRun(error)) {
        this.#miss({ kind: 'hold', accountId: request.accountId, month: request.quota.month, id: reservationId, refusals: 0 });
        this.#scheduleRetry();
      }
      return this.#admitLocally(request, error);
    };
    let result: AdmitResult | Promise<AdmitResult>;
    try {
      result = this.#shared.admit({ ...request, loadUsedTokens, ...(reservationId ? { reservationId } : {}) });
    } catch (error) {
      return failed(error);
    }
    if (result instanceof Promise) return result.then((answer) => this.#answered(request.now, answer), failed);
    return this.#answered(request.now, result);
  }

  /**
   * The stand-in's count, and the shared store's when the change was made here (`where`, see
   * ForgetScope). A forget the shared store fails is kept and sent again once it answers, in
   * order with the settlements it missed: else a plan changed during an outage would leave the
   * shared count as it was until the month ends.
   */
  async forgetQuota(accountId: string, month: string, where: ForgetScope = 'shared'): Promise<void> {
    await this.#standIn?.forgetQuota(accountId, month);
    if (where === 'instance') return;
    try {
      await this.#shared.forgetQuota(accountId, month);
    } catch (error) {
      this.#onFailure(error);
      this.#missForget(accountId, month);
    }
  }

  /** Never fails for the shared store: what it refuses is kept and sent again. */
  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    const standIn = this.#owners.get(reservation);
    if (standIn) {
      await standIn.settle(reservation, usedTokens);
      this.#missUsage(reservation.accountId, reservation.month, tokenCount(usedTokens), this.#now() + this.#meteringLagMs);
      // While a retry waits (the shared store failed), it or the next answer sends this.
      if (this.#retry === undefined) this.#send();
      return;
    }
    const inTableBy = this.#now() + this.#meteringLagMs;
    try {
      await this.#shared.settle(reservation, usedTokens, inTableBy);
    } catch (error) {
      this.#onFailure(error);
      this.#miss({ kind: 'settle', reservation, usedTokens, inTableBy, refusals: 0 });
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
      if (result.ok && result.reservation) this.#owners.set(result.reservation, standIn);
      return result;
    };
    const result = standIn.admit(request);
    return result instanceof Promise ? result.then(owned) : owned(result);
  }

  #answered(now: number, result: AdmitResult): AdmitResult {
    if (this.#standIn !== null) {
      if (now - this.#lastFailure >= WINDOW_MS) this.#standIn = null;
      else if (!this.#answeredSinceFailure) {
        this.#standIn.markQuotasStale();
        this.#shareRequests(this.#standIn, now);
      }
    }
    this.#answeredSinceFailure = true;
    if (this.#missed.length > 0) this.#send();
    return result;
  }

  /**
   * The stand-in's admissions in the current minute go to the shared counters, so the minute's
   * rate limit counts them once the shared store answers again (each instance sends its own, once).
   * Best effort: a failure is logged, and costs at most one window of the rate limit's precision.
   */
  #shareRequests(standIn: MemoryLimitStore, now: number): void {
    const window = windowStart(now);
    for (const { accountId, count } of standIn.takeUnsharedRequests(window)) {
      this.#shared.addRequests(accountId, window, count).catch((error: unknown) => this.#onFailure(error));
    }
  }

  /** One forget waiting per account and month is enough: a second would only cost another load. */
  #missForget(accountId: string, month: string): void {
    const waiting = this.#missed.some(
      (entry) => entry.kind === 'forget' && entry !== this.#inFlight && entry.accountId === accountId && entry.month === month,
    );
    if (!waiting) this.#miss({ kind: 'forget', accountId, month, refusals: 0 });
    this.#scheduleRetry();
  }

  #missUsage(accountId: string, month: string, tokens: number, inTableBy: number): void {
    const mergeKey = usageKey(accountId, month, inTableBy);
    const waiting = this.#merging.get(mergeKey);
    if (waiting) {
      // Sent at the later time: at worst, tokens already in a count loaded within that second are added again.
      waiting.tokens += tokens;
      waiting.inTableBy = Math.max(waiting.inTableBy, inTableBy);
      return;
    }
    const entry: MissedUsage = { kind: 'usage', id: randomUUID(), accountId, month, tokens, inTableBy, refusals: 0 };
    this.#merging.set(mergeKey, entry);
    this.#miss(entry);
  }

  #miss(entry: Missed): void {
    if (this.#missed.length >= MAX_MISSED) {
      // A hold to drop goes first (it only frees tokens early: it runs out in 15 minutes anyway),
      // then the oldest but a forget (one lost leaves a count wrong until the month ends).
      const hold = this.#missed.findIndex((entry) => entry.kind === 'hold' && entry !== this.#inFlight);
      const usage = this.#missed.findIndex((entry) => entry.kind !== 'forget' && entry !== this.#inFlight);
      const oldest = hold >= 0 ? hold : usage >= 0 ? usage : this.#missed[0] === this.#inFlight ? 1 : 0;
      const [dropped] = this.#missed.splice(oldest, 1);
      this.#unmerge(dropped);
      if (dropped && dropped.kind !== 'hold' && dropped.kind !== 'forget') this.#onDropped('full', missedTokens(dropped));
    }
    this.#missed.push(entry);
  }

  /**
   * The entry takes in no more tokens (it is being sent, or dropped): once sent, even if the send
   * failed, Redis may have counted it under its id, so its tokens must not change.
   */
  #unmerge(entry: Missed | undefined): void {
    if (entry?.kind !== 'usage') return;
    // Merging keeps an entry's `inTableBy` within its second, so its key is the one it was filed under.
    const key = usageKey(entry.accountId, entry.month, entry.inTableBy);
    if (this.#merging.get(key) === entry) this.#merging.delete(key);
  }

  /**
   * Sends what the shared store missed, oldest first, one pass at a time. At a failure the pass
   * stops, the entry goes to the back (so one the store keeps refusing cannot hold up the rest;
   * after MAX_REFUSALS refusals it is dropped) and a retry is scheduled with back-off.
   */
  #send(): void {
    if (this.#sending) return;
    this.#sending = true;
    void (async () => {
      try {
        for (let entry = this.#missed[0]; entry !== undefined; entry = this.#missed[0]) {
          this.#unmerge(entry);
          this.#inFlight = entry;
          try {
            if (entry.kind === 'settle') await this.#shared.settle(entry.reservation, entry.usedTokens, entry.inTableBy);
            else if (entry.kind === 'hold') await this.#shared.dropHold(entry.accountId, entry.month, entry.id);
            else if (entry.kind === 'forget') await this.#shared.forgetQuota(entry.accountId, entry.month);
            else await this.#shared.addUsage(entry.accountId, entry.month, entry.tokens, entry.inTableBy, entry.id);
          } catch (error) {
            this.#onFailure(error);
            this.#remove(entry);
            entry.refusals += this.#shared.refuses(error) ? 1 : 0;
            if (entry.refusals >= MAX_REFUSALS) {
              // A hold left in place runs out on its own: no count is low for it (a forget's failures were logged).
              if (entry.kind !== 'hold' && entry.kind !== 'forget') this.#onDropped('refused', missedTokens(entry));
              continue;
            }
            this.#missed.push(entry);
            this.#failedPasses += 1;
            break;
          }
          this.#failedPasses = 0;
          this.#remove(entry);
        }
      } finally {
        this.#inFlight = undefined;
        this.#sending = false;
      }
      if (this.#missed.length > 0) this.#scheduleRetry();
    })();
  }

  /** The entry sent is still first: the queue drops only entries not in flight, and adds at the back. */
  #remove(entry: Missed): void {
    const index = this.#missed.indexOf(entry);
    if (index >= 0) this.#missed.splice(index, 1);
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

function usageKey(accountId: string, month: string, inTableBy: number): string {
  return `${accountId}\u0000${month}\u0000${Math.floor(inTableBy / 1_000)}`;
}

function missedTokens(entry: Missed): number {
  if (entry.kind === 'hold' || entry.kind === 'forget') return 0;
  return entry.kind === 'usage' ? entry.tokens : tokenCount(entry.usedTokens);
}
