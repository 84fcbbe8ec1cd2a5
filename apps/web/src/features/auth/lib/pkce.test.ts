import { describe, expect, it } from 'vitest';
import { randomValue, s256Challenge } from './pkce';

describe('PKCE', () => {
  it('computes the RFC 7636 appendix B challenge', async () => {
    expect(await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes base64url random values of the requested entropy', () => {
    const first = randomValue(32);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomValue(48)).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(randomValue(32)).not.toBe(first);
  });
});
