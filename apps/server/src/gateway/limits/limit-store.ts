/** A token-quota check for one request: what must fit, what we would like to hold. */
export interface QuotaRequest {
  limit: number;
  /** `YYYY-MM` (UTC): the quota period. */
  month: string;
  /** Unix ms when the month ends (counters expire some time after). */
  monthEndsAt: number;
  /** The smallest reservation worth admitting (the prompt plus one token). */
  minimum: number;
  /** The reservation wanted (the prompt plus the completion budget). */
  desired: number;
}

export interface AdmitRequest {
  accountId: string;
  now: number;
  requestsPerMinute: number;
  /** Null when no token quota applies (unlimited plan, byo-keys, or a test key). */
  quota: QuotaRequest | null;
  /** Tokens already used this month, from the database; called once per account and month. */
  loadUsedTokens(): Promise<number>;
  /**
   * The id the reservation takes in the shared store (default: a new one; the in-memory store
   * makes its own). The failover store names it, so that an admission whose answer was lost can
   * have its hold dropped by that id.
   */
  reservationId?: string;
}

export interface Reservation {
  id: string;
  accountId: string;
  month: string;
  /** Tokens held for this request until it settles. */
  granted: number;
  /** The admitting request's `now`. */
  admittedAt: number;
  /**
   * The quota's tokens neither used nor held by any request once this one was granted. Less than
   * `granted`: a like request would not fit until this one settles, so it settles before its
   * answer reaches the client (whose next call then finds the quota as this one left it).
   */
  headroom: number;
}

/** A reservation the request settles before answering (see `Reservation.headroom`). */
export const settlesFirst = (reservation: Reservation): boolean => reservation.headroom < reservation.granted;

export type AdmitResult =
  | { ok: true; reservation: Reservation | null }
  | { ok: false; reason: 'rate'; retryAfterMs: number }
  | { ok: false; reason: 'quota'; used: number; reserved: number };

/**
 * Requests-per-minute counters and token quotas with in-flight reservations: admission checks
 * and reserves atomically, settlement replaces the reservation with the tokens really used.
 */
export interface LimitStore {
  /** The in-memory store answers at once (a value); a shared store asynchronously. */
  admit(request: AdmitRequest): AdmitResult | Promise<AdmitResult>;
  settle(reservation: Reservation, usedTokens: number): Promise<void>;
  /**
   * The account changed (its plan, say): its month's count is read from the usage table again at
   * its next admission with a quota. The store counts only requests it admitted with a quota, so
   * the tokens of a plan without one (Pro, between two spells of Free) are only in the table.
   * `where` (default 'shared'): see ForgetScope.
   */
  forgetQuota(accountId: string, month: string, where?: ForgetScope): Promise<void>;
}

/**
 * Which counts an account change resets: 'shared' on the instance that made the change (its own
 * and the shared store's), 'instance' on one told of it by another (only its own, in memory).
 * The shared count is reset once per change: each reset costs a load, and until 2026-11-29 every
 * instance reset it again on the change's message, each time losing the tokens settled in the
 * last metering interval (not yet in the usage table).
 */
export type ForgetScope = 'shared' | 'instance';

export const WINDOW_MS = 60_000;
/**
 * A reservation that is not settled stops holding tokens after this long (a crash, or a stream
 * still running). Its settlement still counts the tokens used when it comes later, within
 * LATE_SETTLE_MS of the expiry: a 16-minute stream is billed against the quota like any other.
 */
export const RESERVATION_TTL_MS = 15 * 60_000;
/** How long after its expiry a reservation can still be settled (counted once). */
export const LATE_SETTLE_MS = 24 * 60 * 60_000;

/** A token count as the stores keep it: a whole number of at least 0 (NaN and ±Infinity are 0). */
export function tokenCount(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}

export function windowStart(now: number): number {
  return Math.floor(now / WINDOW_MS) * WINDOW_MS;
}
