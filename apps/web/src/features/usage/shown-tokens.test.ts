import { describe, expect, it } from 'vitest';
import { shownTokens } from './shown-tokens';

describe('shownTokens', () => {
  it('counts only quota tokens against a quota, every token without one', () => {
    expect(shownTokens({ tokensUsed: 5_000, ownKeyTokens: 40_000, tokensLimit: 10_000 })).toBe(5_000);
    expect(shownTokens({ tokensUsed: 5_000, ownKeyTokens: 40_000, tokensLimit: null })).toBe(45_000);
    expect(shownTokens({ tokensUsed: 0, ownKeyTokens: 0, tokensLimit: 0 })).toBe(0);
  });
});
