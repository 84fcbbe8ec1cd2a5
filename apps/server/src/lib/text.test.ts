import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, wellFormed } from './text.ts';

describe('wellFormed / hasLoneSurrogate', () => {
  it('replaces only unpaired surrogates and matches the ES2024 built-in', () => {
    const cut = '🚀 launch'.slice(0, 1); // the high half of the rocket
    const cases = ['plain', '🚀 paired', cut, `${cut}x`, '\uDC00lead', 'a\uD83D\uD83Db', '\uDE80\uD83D', ''];
    for (const text of cases) {
      const builtIn = (text as unknown as { toWellFormed(): string }).toWellFormed();
      expect(wellFormed(text)).toBe(builtIn);
      expect(hasLoneSurrogate(text)).toBe(builtIn !== text);
    }
  });

  it('gives the same answer on repeated calls (the pattern is global)', () => {
    expect([1, 2, 3].map(() => hasLoneSurrogate('x\uD83D'))).toEqual([true, true, true]);
  });
});
