import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal, sha256 } from './crypto.ts';

describe('crypto', () => {
  it('round-trips with AES-256-GCM and never reuses an IV', () => {
    const key = randomBytes(32);
    const first = seal('sk-secret-value', key);
    const second = seal('sk-secret-value', key);
    expect(first.ciphertext.toString('utf8')).not.toContain('sk-secret');
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(open(first, key)).toBe('sk-secret-value');
  });

  it('refuses tampered ciphertext and the wrong key', () => {
    const key = randomBytes(32);
    const sealed = seal('value', key);
    const tampered = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext.map((byte) => byte ^ 1)) };
    expect(() => open(tampered, key)).toThrow();
    expect(() => open(sealed, randomBytes(32))).toThrow();
  });

  it('hashes tokens deterministically', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
