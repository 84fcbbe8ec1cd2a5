import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSimpleEmail, WaitlistEmail } from './fields.ts';

/** The spec's simple pattern as a regular expression: the reference the check must agree with. */
const PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

describe('the waitlist e-mail pattern', () => {
  it('decides every string as the regular expression does', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '.', '@', ' ', '\t', '\u00a0', 'é', '-'), maxLength: 14 });
    fc.assert(
      fc.property(text, (value) => isSimpleEmail(value) === PATTERN.test(value)),
      { numRuns: 20_000 },
    );
    for (const value of ['a@b.c', 'a@b..c', 'a@.b.c', 'a@b.', 'a@.b', '@b.c', 'a@@b.c', 'a b@c.d', 'a@b.c.', 'a.b@c'])
      expect(isSimpleEmail(value), value).toBe(PATTERN.test(value));
  });

  it('answers a long run of dots at once, where the pattern backtracks (quadratic time)', () => {
    // Refused only at its end: the pattern tries every split of the dots first.
    const dots = `a@${'.'.repeat(200_000)}@`;
    expect(isSimpleEmail(dots)).toBe(false);
    expect(WaitlistEmail.safeParse(dots).success).toBe(false);
  });
});
