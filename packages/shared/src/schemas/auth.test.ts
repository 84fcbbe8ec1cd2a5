import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../constants/messages.ts';
import { LoginRequest, RegisterForm, ResetPasswordForm } from './auth.ts';

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byField[String(issue.path[0])] ??= issue.message;
  return byField;
}

describe('login form rules (spec section 5)', () => {
  it.each([
    [
      { email: '', password: '' },
      { email: MESSAGES.login.emailRequired, password: MESSAGES.login.passwordRequired },
    ],
    [
      { email: 'nope', password: '12345' },
      { email: MESSAGES.login.emailInvalid, password: MESSAGES.login.passwordTooShort },
    ],
  ])('%o', (input, expected) => {
    expect(messages(LoginRequest.safeParse(input))).toEqual(expected);
  });

  it('accepts a valid pair and defaults remember to false', () => {
    expect(LoginRequest.parse({ email: ' Ada@Example.com ', password: 'secret1' })).toEqual({
      email: 'Ada@Example.com',
      password: 'secret1',
      remember: false,
    });
  });
});

describe('register form rules (spec section 5)', () => {
  const valid = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    password: 'Analytical1',
    confirmPassword: 'Analytical1',
    acceptTerms: true,
  };

  it('reports every empty field with the spec message', () => {
    expect(messages(RegisterForm.safeParse({ name: '', email: '', password: '', confirmPassword: '', acceptTerms: false }))).toEqual({
      name: MESSAGES.register.nameRequired,
      email: MESSAGES.login.emailRequired,
      password: MESSAGES.register.passwordRequired,
      confirmPassword: MESSAGES.register.confirmRequired,
      acceptTerms: MESSAGES.register.acceptTerms,
    });
  });

  it.each([
    ['name', { name: 'A' }, MESSAGES.register.nameTooShort],
    ['email', { email: 'ada@' }, MESSAGES.login.emailInvalid],
    ['password', { password: 'Short1', confirmPassword: 'Short1' }, MESSAGES.register.passwordTooShort],
    ['password', { password: 'alllowercase1', confirmPassword: 'alllowercase1' }, MESSAGES.register.passwordComplexity],
    ['password', { password: 'NoDigitsHere', confirmPassword: 'NoDigitsHere' }, MESSAGES.register.passwordComplexity],
    ['confirmPassword', { confirmPassword: 'Different1' }, MESSAGES.register.passwordsDiffer],
  ])('%s: %o', (field, patch, expected) => {
    expect(messages(RegisterForm.safeParse({ ...valid, ...patch }))[field]).toBe(expected);
  });

  it('reports a mismatch even while another field is still invalid', () => {
    const result = messages(RegisterForm.safeParse({ ...valid, name: '', confirmPassword: 'Other1234' }));
    expect(result).toEqual({ name: MESSAGES.register.nameRequired, confirmPassword: MESSAGES.register.passwordsDiffer });
  });

  it('accepts a valid form', () => {
    expect(RegisterForm.safeParse(valid).success).toBe(true);
  });

  it('applies the same confirmation rule to the reset form', () => {
    expect(messages(ResetPasswordForm.safeParse({ password: 'Analytical1', confirmPassword: 'Analytical2' }))).toEqual({
      confirmPassword: MESSAGES.register.passwordsDiffer,
    });
  });
});
