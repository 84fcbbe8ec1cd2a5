import { limitsForPlan, planName, USER_PLANS, type UserPlan } from '@conductor/shared';
import { GatewayError } from '../gateway-error.ts';
import type { AdmitResult, LimitStore, QuotaRequest, Reservation } from './limit-store.ts';

/** Completion tokens held for a request that sets no `max_tokens`. */
export const DEFAULT_COMPLETION_RESERVE = 1_024;

export interface AccountAdmission {
  accountId: string;
  plan: UserPlan;
  /** Test keys never consume the token quota (the rate limit still applies). */
  environment: 'live' | 'test';
  /**
   * Every target the request may be served by uses the account's own provider key: the provider
   * bills the account, so the plan's token quota does not apply (the rate limit still does).
   */
  ownKeysOnly?: boolean;
  now: number;
  promptTokens: number;
  maxTokens: number | undefined;
  loadUsedTokens(): Promise<number>;
}

export interface Admitted {
  reservation: Reservation | null;
  /** A lower `max_tokens` to send upstream when the quota left is smaller than asked for. */
  maxTokensCap: number | undefined;
}

/**
 * A refusal for the monthly token quota (spent, busy with requests in flight, or smaller than the
 * prompt), as opposed to the rate limit: traffic on the account's own provider keys is not held
 * to it, so a request that may also be served by those can go on with them alone.
 */
export class QuotaRefusal extends GatewayError {}

const integer = new Intl.NumberFormat('en-US');
/** Retry-After when the quota is taken only by requests in flight (they settle within seconds). */
const IN_FLIGHT_RETRY_SECONDS = 2;
/**
 * Plans whose monthly quota is a hard stop. The spec: free plans are "throttled when over the
 * limit until the next cycle", while Pro (and Enterprise) usage past the quota continues and is
 * billed as overage ($0.05 per 1K tokens); byo-keys has no quota on our side.
 */
const THROTTLED_PLANS: ReadonlySet<UserPlan> = new Set(['free']);
const PLAN_LIMITS = Object.fromEntries(USER_PLANS.map((plan) => [plan, limitsForPlan(plan)])) as Record<
  UserPlan,
  ReturnType<typeof limitsForPlan>
>;

/** `YYYY-MM` of a UTC instant and the instant the month ends. */
export function monthOf(now: number): { month: string; endsAt: number } {
  const date = new Date(now);
  const endsAt = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return { month: date.toISOString().slice(0, 7), endsAt };
}

/**
 * The plan's limits for one request: requests per minute always, the monthly token quota for
 * live keys on the plans it throttles (Free). Reservations hold the prompt plus the completion budget;
 * near the end of the quota the budget shrinks to what is left and `max_tokens` is capped,
 * so concurrent requests cannot overshoot. If the database fails to give the month's usage,
 * requests are served without the quota but within the rate limit, and the failure is logged: the
 * gateway stays available. If the store itself fails (with Redis, the failover store counts in
 * the instance meanwhile), they are served without limits, logged too.
 */
export class AccountLimiter {
  readonly #store: LimitStore;
  readonly #onStoreError: (error: unknown) => void;

  constructor(store: LimitStore, onStoreError: (error: unknown) => void = () => undefined) {
    this.#store = store;
    this.#onStoreError = onStoreError;
  }

  /** A value when the store answers at once (the in-memory store), else a promise; refusals are rejected promises. */
  admit(input: AccountAdmission): Admitted | Promise<Admitted> {
    const limits = PLAN_LIMITS[input.plan];
    const quotaLimit =
      input.environment === 'live' && input.ownKeysOnly !== true && THROTTLED_PLANS.has(input.plan) ? limits.tokensPerMonth : null;
    const desired = input.promptTokens + (input.maxTokens ?? DEFAULT_COMPLETION_RESERVE);
    let quota: QuotaRequest | null = null;
    if (quotaLimit !== null) {
      const { month, endsAt } = monthOf(input.now);
      quota = { limit: quotaLimit, month, monthEndsAt: endsAt, minimum: input.promptTokens + 1, desired };
    }
    // The limit store cannot answer: serve rather than fail every request; say so in the log.
    const unlimited = (error: unknown): Admitted => {
      this.#onStoreError(error);
      return { reservation: null, maxTokensCap: undefined };
    };
    // An admission with a quota fails when the usage table cannot be read (the month's first load;
    // the memory store shares one load among the requests waiting for it, so a failure is not
    // always this request's own load): the quota cannot be checked, so it is not (as above), but
    // the rate limit needs no table. Admitted again without a quota: no store counted the request
    // before asking for the load (Redis's ADMIT returns before its INCR).
    const failed = (error: unknown): Admitted | Promise<Admitted> => {
      if (quota === null) return unlimited(error);
      this.#onStoreError(error);
      return this.#admitWithoutQuota(input);
    };
    let result: AdmitResult | Promise<AdmitResult>;
    try {
      result = this.#store.admit({
        accountId: input.accountId,
        now: input.now,
        requestsPerMinute: limits.requestsPerMinute,
        quota,
        loadUsedTokens: input.loadUsedTokens,
      });
    } catch (error) {
      return failed(error);
    }
    if (result instanceof Promise) return result.then((settled) => this.#decide(input, quotaLimit, desired, settled), failed);
    return this.#decide(input, quotaLimit, desired, result);
  }

  /**
   * The rate limit alone (the month's usage could not be read). The store failing again serves
   * the request without limits, unreported: the first failure was.
   */
  #admitWithoutQuota(input: AccountAdmission): Admitted | Promise<Admitted> {
    const unlimited = (): Admitted => ({ reservation: null, maxTokensCap: undefined });
    const request = {
      accountId: input.accountId,
      now: input.now,
      requestsPerMinute: PLAN_LIMITS[input.plan].requestsPerMinute,
      quota: null,
      loadUsedTokens: input.loadUsedTokens,
    };
    let result: AdmitResult | Promise<AdmitResult>;
    try {
      result = this.#store.admit(request);
    } catch {
      return unlimited();
    }
    if (result instanceof Promise) return result.then((settled) => this.#decide(input, null, 0, settled), unlimited);
    return this.#decide(input, null, 0, result);
  }

  #decide(input: AccountAdmission, quotaLimit: number | null, desired: number, result: AdmitResult): Admitted | Promise<never> {
    const limits = PLAN_LIMITS[input.plan];
    if (result.ok) {
      const granted = result.reservation?.granted;
      const cap = granted !== undefined && granted < desired ? Math.max(1, granted - input.promptTokens) : undefined;
      return { reservation: result.reservation, maxTokensCap: cap };
    }
    if (result.reason === 'rate') {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      return Promise.reject(
        new GatewayError(
          429,
          'rate_limit_error',
          'rate_limit_exceeded',
          `Rate limit reached: the ${planName(input.plan)} plan allows ${integer.format(limits.requestsPerMinute)} requests per minute. Retry in ${seconds} s.`,
          { retryAfterSeconds: seconds },
        ),
      );
    }
    if (quotaLimit !== null && input.promptTokens + 1 > quotaLimit) {
      // No month's quota can hold this prompt: waiting for the reset would not help either.
      return Promise.reject(
        new QuotaRefusal(
          429,
          'insufficient_quota',
          'quota_exceeded',
          `This request's prompt (about ${integer.format(input.promptTokens)} tokens) is larger than the ${planName(input.plan)} plan's whole monthly quota of ${integer.format(quotaLimit)} tokens. Shorten the prompt, or upgrade your plan for more tokens.`,
        ),
      );
    }
    if (quotaLimit !== null && result.used + input.promptTokens + 1 <= quotaLimit) {
      // Refused only for what requests in flight hold: they settle (and free what they did not
      // use) within seconds, so this is a short wait, not the end of the month.
      return Promise.reject(
        new QuotaRefusal(
          429,
          'rate_limit_error',
          'rate_limit_exceeded',
          `Monthly token quota busy: ${integer.format(result.used)} of ${integer.format(quotaLimit)} tokens used this month on the ${planName(input.plan)} plan and ${integer.format(result.reserved)} held by requests in flight. Retry in ${IN_FLIGHT_RETRY_SECONDS} s, when they finish.`,
          { retryAfterSeconds: IN_FLIGHT_RETRY_SECONDS },
        ),
      );
    }
    const { endsAt } = monthOf(input.now);
    const resetsOn = new Date(endsAt).toISOString().slice(0, 10);
    const seconds = Math.max(1, Math.ceil((endsAt - input.now) / 1000));
    const inFlight = result.reserved > 0 ? ` (${integer.format(result.reserved)} more held by requests in flight)` : '';
    return Promise.reject(
      new QuotaRefusal(
        429,
        'insufficient_quota',
        'quota_exceeded',
        `Monthly token quota reached: ${integer.format(result.used)} of ${integer.format(quotaLimit ?? 0)} tokens used this month on the ${planName(input.plan)} plan${inFlight}. The quota resets on ${resetsOn} (UTC); upgrade your plan for more tokens.`,
        { retryAfterSeconds: seconds },
      ),
    );
  }

  async settle(reservation: Reservation | null, usedTokens: number): Promise<void> {
    if (reservation) await this.#store.settle(reservation, usedTokens);
  }
}
