import { DEMO_CREDENTIALS } from '@conductor/shared';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './password-policy.ts';

describe('common password refusal', () => {
  it.each([
    'Password1',
    'Password123',
    'Qwerty123',
    'Welcome1',
    'P@ssw0rd',
    'Abcd1234',
    'Iloveyou1',
    'Letmein1',
    'Qwerty2024!',
    'Monkey123',
  ])('refuses %s', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['Analytical1Engine', 'correct-Horse-battery-9', 'Tq7#vLz2pWm', DEMO_CREDENTIALS.password])('accepts %s', (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });
});
