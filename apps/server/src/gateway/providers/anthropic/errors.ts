import { CONTEXT_LENGTH_EXCEEDED, classifyUpstreamError, normalizeErrorBody, textExcerpt } from '../common/errors.ts';
import { headerValue } from '../common/headers.ts';
import { retryAfterFromHeaders } from '../common/retry-after.ts';
import type { UpstreamError } from '../types.ts';
import { AnthropicErrorBody } from './schemas.ts';

type Headers = Record<string, string | undefined>;

/**
 * Without `retry-after`, the reset instant of the exhausted budget (RFC 3339 timestamps).
 * https://docs.anthropic.com/en/api/rate-limits#response-headers
 */
function retryAfterFromResets(headers: Headers, now: (() => number) | undefined): number | undefined {
  const dateHeader = headerValue(headers, 'date');
  const reference = dateHeader !== undefined && Number.isFinite(Date.parse(dateHeader)) ? Date.parse(dateHeader) : now?.();
  if (reference === undefined) return undefined;
  const resets = ['anthropic-ratelimit-requests-reset', 'anthropic-ratelimit-tokens-reset', 'anthropic-ratelimit-input-tokens-reset']
    .map((name) => headerValue(headers, name))
    .map((value) => (value === undefined ? Number.NaN : Date.parse(value)))
    .filter((value) => Number.isFinite(value));
  if (resets.length === 0) return undefined;
  return Math.max(0, Math.min(...resets) - reference);
}

/**
 * Anthropic reports a prompt over the context window only in words, as an `invalid_request_error`:
 * `prompt is too long: 208310 tokens > 200000 maximum`, or, with `max_tokens` counted in (older
 * models), `input length and \`max_tokens\` exceed context limit: 197626 + 8192 > 200000, …`.
 * https://docs.anthropic.com/en/docs/build-with-claude/context-windows
 */
const CONTEXT_OVERFLOW = /^(prompt is too long:|input length and `?max_tokens`? exceed context limit)/i;

/**
 * An account out of credit is refused with a 400 `invalid_request_error` that says so only in
 * words: `Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing
 * to upgrade or purchase credits.` (or `Usage blocked due to insufficient credits. …`). That is
 * the operator's billing, not the caller's request: it is answered as a 402 is (insufficient
 * quota, the next target tried). https://docs.anthropic.com/en/api/errors
 */
const OUT_OF_CREDIT = /^(your credit balance is too low|usage (is )?blocked due to (insufficient|lack of) credits)/i;

/**
 * https://docs.anthropic.com/en/api/errors#http-errors — 529 `overloaded_error` is Anthropic's
 * own "temporarily overloaded" status: retryable like a 503.
 */
export function mapAnthropicError(status: number, rawBody: unknown, headers: Headers, now?: () => number): UpstreamError {
  const body = normalizeErrorBody(rawBody);
  const parsed = AnthropicErrorBody.safeParse(body);
  const message = parsed.success ? parsed.data.error.message : textExcerpt(body);
  const code = parsed.success ? parsed.data.error.type : undefined;
  const overflow = code === 'invalid_request_error' && message !== undefined && CONTEXT_OVERFLOW.test(message);
  const outOfCredit = status === 400 && code === 'invalid_request_error' && message !== undefined && OUT_OF_CREDIT.test(message);
  const retryAfterMs = retryAfterFromHeaders(headers, now) ?? (status === 429 ? retryAfterFromResets(headers, now) : undefined);
  return classifyUpstreamError(outOfCredit ? 402 : status, {
    providerName: 'Anthropic',
    message,
    code,
    retryAfterMs,
    requestFault: overflow ? CONTEXT_LENGTH_EXCEEDED : undefined,
  });
}

/** The HTTP status an in-stream error type stands for. https://docs.anthropic.com/en/api/errors#http-errors (402 `billing_error`). */
export function statusOfAnthropicErrorType(type: string): number {
  const statuses: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    billing_error: 402,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    api_error: 500,
    overloaded_error: 529,
  };
  return statuses[type] ?? 500;
}
