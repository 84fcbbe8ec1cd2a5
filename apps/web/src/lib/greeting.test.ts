import { describe, expect, it } from 'vitest';
import { firstName, greeting } from './greeting';

const now = Date.parse('2026-11-29T12:00:00Z');

describe('greeting', () => {
  it('welcomes an account in its first 24 hours, and welcomes it back after that', () => {
    expect(greeting({ name: 'Ada Lovelace', createdAt: '2026-11-29T11:59:00Z' }, now)).toBe('Welcome, Ada');
    expect(greeting({ name: 'Ada Lovelace', createdAt: '2026-11-28T12:00:01Z' }, now)).toBe('Welcome, Ada');
    expect(greeting({ name: 'Ada Lovelace', createdAt: '2026-11-28T12:00:00Z' }, now)).toBe('Welcome back, Ada');
    expect(greeting({ name: 'Ada Lovelace', createdAt: '2025-01-01T00:00:00Z' }, now)).toBe('Welcome back, Ada');
  });

  it('uses the first name, or "User" when there is none', () => {
    expect(greeting({ name: '  Grace   Brewster Hopper ', createdAt: '2020-01-01T00:00:00Z' }, now)).toBe('Welcome back, Grace');
    expect(greeting({ name: '   ', createdAt: '2020-01-01T00:00:00Z' }, now)).toBe('Welcome back, User');
    expect(greeting(null, now)).toBe('Welcome back, User');
    expect(firstName({ name: 'Ada' })).toBe('Ada');
    expect(firstName(undefined)).toBe('User');
  });
});
