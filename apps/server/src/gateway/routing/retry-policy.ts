export interface RetryPolicy {
  /** Extra attempts on the last remaining target for retryable errors. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes back to the caller instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000, maxRetryAfterMs: 5_000 };

/**
 * Exponential backoff with full jitter (a random delay between 0 and base·2^attempt, capped),
 * and never sooner than the upstream's Retry-After. `undefined` means: do not retry here,
 * because the upstream asked for a longer pause than the policy will hold a caller for.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = Math.round(random() * ceiling);
  return Math.max(jittered, retryAfterMs ?? 0);
}
