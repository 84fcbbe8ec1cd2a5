import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatCount,
  formatLatency,
  formatMicros,
  formatNumber,
  formatPercent,
  formatRelative,
  formatSuccessRate,
} from './format';

describe('dashboard formats', () => {
  it('shows numbers with thousands separators and money with two decimals', () => {
    expect(formatNumber(1_234_567)).toBe('1,234,567');
    expect(formatCents(2900)).toBe('$29.00');
    expect(formatCents(-1497)).toBe('-$14.97');
    expect(formatMicros(24_500_000)).toBe('$24.50');
    expect(formatMicros(0)).toBe('$0.00');
    expect(formatMicros(1_200)).toBe('<$0.01');
  });

  it('writes a count with its noun, singular only for one', () => {
    expect(formatCount(1, 'token')).toBe('1 token');
    expect(formatCount(0, 'error')).toBe('0 errors');
    expect(formatCount(1_204, 'request')).toBe('1,204 requests');
  });

  it('shows latency, rates and relative times', () => {
    expect(formatLatency(975)).toBe('975 ms');
    expect(formatLatency(1_200)).toBe('1.20s');
    expect(formatPercent(0.998)).toBe('99.8%');
    // A success rate is never 100% with an error in it, nor 0% with a success.
    expect([1, 0.9999, 0.99951, 0.998, 0.0001, 0].map((rate) => formatSuccessRate(rate))).toEqual([
      '100.0%',
      '99.9%',
      '99.9%',
      '99.8%',
      '0.1%',
      '0.0%',
    ]);
    const now = Date.parse('2026-03-15T12:00:00Z');
    expect(formatRelative('2026-03-15T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2026-03-15T11:57:00Z', now)).toBe('3 min. ago');
    expect(formatRelative('2026-03-14T12:00:00Z', now)).toBe('yesterday');
  });
});
