import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from './retry-policy.ts';

describe('retryDelayMs', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };

  it('grows exponentially with full jitter, capped', () => {
    expect(retryDelayMs(policy, 0, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(policy, 3, undefined, () => 1)).toBe(800);
    expect(retryDelayMs(policy, 10, undefined, () => 1)).toBe(1_000);
    expect(retryDelayMs(policy, 3, undefined, () => 0.5)).toBe(400);
    expect(retryDelayMs(policy, 3, undefined, () => 0)).toBe(0);
  });

  it('never retries sooner than Retry-After, and not at all when it is too long', () => {
    expect(retryDelayMs(policy, 0, 2_000, () => 1)).toBe(2_000);
    expect(retryDelayMs(policy, 0, 6_000, () => 1)).toBeUndefined();
  });
});
