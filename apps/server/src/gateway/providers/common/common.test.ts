import { describe, expect, it } from 'vitest';
import { classifyUpstreamError } from './errors.ts';
import { parseDuration, retryAfterFromHeaders, retryAfterFromResetHeaders } from './retry-after.ts';
import { redactSecrets } from './secrets.ts';

describe('retry-after parsing', () => {
  it('reads delay-seconds (fractions round up to whole milliseconds)', () => {
    expect(retryAfterFromHeaders({ 'retry-after': '3' })).toBe(3000);
    expect(retryAfterFromHeaders({ 'Retry-After': '0.25' })).toBe(250);
  });

  it('prefers retry-after-ms', () => {
    expect(retryAfterFromHeaders({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1500);
  });

  it('reads an HTTP-date against the Date header, else the clock, never negative', () => {
    expect(retryAfterFromHeaders({ 'retry-after': 'Sun, 06 Nov 1994 08:49:47 GMT', date: 'Sun, 06 Nov 1994 08:49:37 GMT' })).toBe(10_000);
    expect(
      retryAfterFromHeaders({ 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' }, () => Date.parse('Sun, 06 Nov 1994 08:49:40 GMT')),
    ).toBe(0);
    expect(retryAfterFromHeaders({ 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' })).toBeUndefined();
  });

  it('ignores garbage', () => {
    expect(retryAfterFromHeaders({ 'retry-after': 'soon' }, () => 0)).toBeUndefined();
    expect(retryAfterFromHeaders({})).toBeUndefined();
  });

  it('parses Go-style durations', () => {
    expect(parseDuration('1s')).toBe(1000);
    expect(parseDuration('6m0s')).toBe(360_000);
    expect(parseDuration('20ms')).toBe(20);
    expect(parseDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseDuration('forever')).toBeUndefined();
  });

  it('uses the reset of the exhausted budget, else the sooner one', () => {
    expect(
      retryAfterFromResetHeaders({
        'x-ratelimit-reset-requests': '2s',
        'x-ratelimit-reset-tokens': '10s',
        'x-ratelimit-remaining-tokens': '0',
      }),
    ).toBe(10_000);
    expect(retryAfterFromResetHeaders({ 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-reset-tokens': '10s' })).toBe(2000);
    expect(retryAfterFromResetHeaders({})).toBeUndefined();
  });
});

describe('classifyUpstreamError', () => {
  const classify = (status: number, code?: string) => classifyUpstreamError(status, { providerName: 'P', message: 'm', code });

  it.each([
    [400, 400, 'invalid_request_error', 'terminal'],
    [401, 401, 'authentication_error', 'terminal'],
    [402, 429, 'insufficient_quota', 'fallback'],
    [403, 403, 'permission_error', 'terminal'],
    [404, 404, 'not_found_error', 'fallback'],
    [408, 504, 'timeout_error', 'retryable'],
    [409, 409, 'api_error', 'retryable'],
    [413, 413, 'invalid_request_error', 'terminal'],
    [422, 400, 'invalid_request_error', 'terminal'],
    [429, 429, 'rate_limit_error', 'retryable'],
    [499, 502, 'upstream_error', 'retryable'],
    [500, 502, 'upstream_error', 'retryable'],
    [502, 502, 'upstream_error', 'retryable'],
    [503, 503, 'upstream_error', 'retryable'],
    [504, 504, 'timeout_error', 'retryable'],
    [529, 503, 'upstream_error', 'retryable'],
    [302, 502, 'upstream_error', 'fallback'],
  ])('HTTP %i → %i %s (%s)', (status, clientStatus, type, disposition) => {
    expect(classify(status)).toMatchObject({ status: clientStatus, type, disposition });
  });

  it('a 429 with a quota code falls back instead of retrying', () => {
    expect(classify(429, 'insufficient_quota')).toMatchObject({ type: 'insufficient_quota', disposition: 'fallback' });
  });

  it('keeps retryAfterMs for transient errors only', () => {
    expect(classifyUpstreamError(429, { providerName: 'P', retryAfterMs: 10 }).retryAfterMs).toBe(10);
    expect(classifyUpstreamError(400, { providerName: 'P', retryAfterMs: 10 })).not.toHaveProperty('retryAfterMs');
  });
});

describe('redactSecrets', () => {
  it('blanks key-like tokens and keeps ordinary words', () => {
    expect(redactSecrets('Incorrect API key provided: sk-proj-****abcd. Skipped keyboard task')).toBe(
      'Incorrect API key provided: [redacted]. Skipped keyboard task',
    );
    expect(redactSecrets('key AIzaSyA1b2C3d4E5f6G7h8I9j0 is bad')).toBe('key [redacted] is bad');
    expect(redactSecrets('token 0123456789abcdef0123456789abcdef rejected')).toBe('token [redacted] rejected');
  });
});
