import { describe, expect, it } from 'vitest';
import { CONTEXT_LENGTH_EXCEEDED, classifyUpstreamError, type RequestFault } from './errors.ts';
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

describe('classifyUpstreamError: the request fault relayed to the client', () => {
  const refused = (status: number, requestFault: RequestFault) =>
    classifyUpstreamError(status, { providerName: 'P', message: 'm', requestFault });

  it.each([
    [400, 400],
    [413, 413],
    [422, 400],
  ])('HTTP %i (the request at fault) carries the code and param: %i', (status, clientStatus) => {
    expect(refused(status, CONTEXT_LENGTH_EXCEEDED)).toEqual({
      status: clientStatus,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: 'P: m',
      code: 'context_length_exceeded',
      param: 'messages',
    });
  });

  it.each([401, 402, 403, 404, 408, 409, 429, 499, 500, 503, 529])('HTTP %i keeps the gateway’s code', (status) => {
    const error = refused(status, { code: 'invalid_value', param: 'messages' });
    expect(error).not.toHaveProperty('code');
    expect(error).not.toHaveProperty('param');
  });

  it.each([
    'invalid_api_key',
    'incorrect_api_key',
    'invalid_authentication',
    'insufficient_permissions',
    'insufficient_quota',
    'billing_not_active',
    'upstream_hosted_key_rejected',
  ])('a code about keys, billing or the gateway’s own namespace (%s) is not relayed', (code) => {
    const error = refused(400, { code, param: 'messages' });
    expect(error).not.toHaveProperty('code');
    expect(error.param).toBe('messages');
  });

  it.each(['', 'two words', '<script>', 'code\n', '1500', 'x'.repeat(65), 'contexte_dépassé'])(
    'a code that is not a short identifier (%j) is dropped',
    (code) => {
      expect(refused(400, { code })).not.toHaveProperty('code');
    },
  );

  it.each(['', 'messages; drop', 'messages\n', '"messages"', 'm'.repeat(129)])(
    'a param that is not a member path (%j) is dropped',
    (param) => {
      expect(refused(400, { code: 'invalid_value', param })).toMatchObject({ code: 'invalid_value' });
      expect(refused(400, { code: 'invalid_value', param })).not.toHaveProperty('param');
    },
  );

  it('keeps member paths as OpenAI writes them, and a param without a code', () => {
    expect(refused(400, { param: 'messages.[0].content' })).toMatchObject({ param: 'messages.[0].content' });
    expect(refused(400, { param: 'tools[0].function.name' })).not.toHaveProperty('code');
    expect(refused(400, { code: 'model.v2-x' }).code).toBe('model.v2-x');
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
