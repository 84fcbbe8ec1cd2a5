import { describe, expect, it } from 'vitest';
import { FAQ_CATEGORIES, FAQ_ITEMS, matchesFaq } from './faq.ts';

describe('FAQ', () => {
  it('has questions in each of the spec categories', () => {
    for (const category of FAQ_CATEGORIES) expect(FAQ_ITEMS.filter((item) => item.category === category).length).toBeGreaterThanOrEqual(3);
  });

  it('states the spec facts', () => {
    const text = FAQ_ITEMS.map((item) => item.answer).join(' ');
    expect(text).toContain('about 4 characters of English text equal 1 token');
    expect(text).toContain('Input and output tokens both count');
    expect(text).toContain('take effect at once, with proration');
    expect(text).toContain('Free plans are throttled when they are over the limit until the next cycle');
    expect(text).toContain('On Pro and Enterprise, overage is billed at $0.05 per 1K tokens');
  });

  it('matches every word of the search in the question or the answer, ignoring case', () => {
    const tokens = FAQ_ITEMS.find((item) => item.question === 'How are tokens counted?');
    if (!tokens) throw new Error('missing FAQ item');
    expect(matchesFaq(tokens, 'TOKENS counted')).toBe(true);
    expect(matchesFaq(tokens, '4 characters')).toBe(true);
    expect(matchesFaq(tokens, 'tokens webhooks')).toBe(false);
    expect(matchesFaq(tokens, '   ')).toBe(true);
  });
});
