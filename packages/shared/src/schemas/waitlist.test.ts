import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../constants/messages.ts';
import { WaitlistRequest, waitlistFailureMessage } from './waitlist.ts';

describe('waitlist request', () => {
  it('normalises the address to its stored, case-insensitive form', () => {
    expect(WaitlistRequest.parse({ email: '  Ada@Example.COM ', source: 'footer' }).email).toBe('ada@example.com');
    expect(WaitlistRequest.parse({ email: 'ＡＤＡ@ｅｘａｍｐｌｅ.ｃｏｍ', source: 'footer' }).email).toBe('ada@example.com');
  });

  it.each([
    ['', 'empty'],
    ['ada', 'no @'],
    ['ada@example', 'no dot'],
    ['a da@example.com', 'a space'],
    ['ada\u200b@example.com', 'a zero-width space'],
    ['ada@exa\u202emple.com', 'a bidi override'],
    ['ada\u0000@example.com', 'a NUL byte'],
    ['a＠b@example.com', 'a full-width @ that would become a second @'],
    [`${'a'.repeat(250)}@example.com`, 'more than 254 characters'],
  ])('refuses %j (%s) with the spec message', (email) => {
    const result = WaitlistRequest.safeParse({ email, source: 'coming_soon_page' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(MESSAGES.waitlist.invalidEmail);
  });

  it('refuses unknown sources and unknown keys', () => {
    expect(WaitlistRequest.safeParse({ email: 'a@b.co', source: 'admin' }).success).toBe(false);
    expect(WaitlistRequest.safeParse({ email: 'a@b.co', source: 'footer', role: 'admin' }).success).toBe(false);
  });

  it('maps each failure to the spec’s exact message', () => {
    expect(waitlistFailureMessage(409, 'help@x.dev')).toBe('This email is already on our waitlist!');
    expect(waitlistFailureMessage(409, 'help@x.dev', 'footer')).toBe('This email is already subscribed to our updates.');
    expect(waitlistFailureMessage(500, 'help@x.dev', 'footer')).toBe('Something went wrong. Please try again or contact us at help@x.dev');
    expect(waitlistFailureMessage(400, 'help@x.dev')).toBe('Please enter a valid email address');
    expect(waitlistFailureMessage(500, 'help@x.dev')).toBe('Something went wrong. Please try again or contact us at help@x.dev');
    expect(waitlistFailureMessage(0, 'help@x.dev')).toBe('Something went wrong. Please try again or contact us at help@x.dev');
    expect(waitlistFailureMessage(429, 'help@x.dev')).toBe('Something went wrong. Please try again or contact us at help@x.dev');
  });
});
