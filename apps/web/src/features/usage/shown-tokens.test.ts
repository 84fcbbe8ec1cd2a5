import { describe, expect, it } from 'vitest';
import type { UsageCurrent } from '@conductor/shared/schemas/usage';
import { shownTokens, tokensHint } from './shown-tokens';

describe('shownTokens', () => {
  it('counts only quota tokens against a quota, every token without one', () => {
    expect(shownTokens({ tokensUsed: 5_000, ownKeyTokens: 40_000, tokensLimit: 10_000 })).toBe(5_000);
    expect(shownTokens({ tokensUsed: 5_000, ownKeyTokens: 40_000, tokensLimit: null })).toBe(45_000);
    expect(shownTokens({ tokensUsed: 0, ownKeyTokens: 0, tokensLimit: 0 })).toBe(0);
  });
});

describe('tokensHint', () => {
  const usage = (change: Partial<UsageCurrent>): UsageCurrent => ({
    plan: 'free',
    tokensUsed: 0,
    ownKeyTokens: 0,
    testTokens: 0,
    tokensLimit: 10_000,
    requestsToday: 0,
    requestsLimitPerMinute: 10,
    costThisMonthMicros: 0,
    monthStart: '2026-11-01',
    ...change,
  });

  it('names the quota, then own-key and test-key tokens, which it does not count', () => {
    expect(tokensHint(usage({}))).toBe('of 10,000 this month');
    expect(tokensHint(usage({ ownKeyTokens: 1_500 }))).toBe('of 10,000 this month, plus 1,500 on your own keys');
    expect(tokensHint(usage({ testTokens: 42 }))).toBe('of 10,000 this month; 42 on test keys, not counted');
    expect(tokensHint(usage({ ownKeyTokens: 1_500, testTokens: 42 }))).toBe(
      'of 10,000 this month, plus 1,500 on your own keys; 42 on test keys, not counted',
    );
  });

  it('without a quota, own-key tokens are in the figure itself; test-key tokens are still named apart', () => {
    expect(tokensHint(usage({ tokensLimit: null, ownKeyTokens: 1_500 }))).toBe('No monthly quota on your plan');
    expect(tokensHint(usage({ tokensLimit: null, testTokens: 7 }))).toBe('No monthly quota on your plan; 7 on test keys, not counted');
  });
});
