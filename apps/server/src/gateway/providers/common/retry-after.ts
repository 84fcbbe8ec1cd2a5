import { headerValue } from './headers.ts';

type Headers = Record<string, string | undefined>;

/**
 * The reference instant for HTTP-dates: the upstream's own `Date` header when present (no
 * clock needed and immune to skew), else the caller's `now()`.
 */
function referenceTime(headers: Headers, now: (() => number) | undefined): number | undefined {
  const date = headerValue(headers, 'date');
  const parsed = date === undefined ? Number.NaN : Date.parse(date);
  if (Number.isFinite(parsed)) return parsed;
  return now?.();
}

/**
 * `Retry-After` as delay-seconds or HTTP-date (RFC 9110 §10.2.3,
 * https://www.rfc-editor.org/rfc/rfc9110#field.retry-after), plus the `retry-after-ms` header
 * sent by OpenAI and Azure OpenAI (https://learn.microsoft.com/en-us/azure/ai-services/openai/quotas-limits).
 */
export function retryAfterFromHeaders(headers: Headers, now?: () => number): number | undefined {
  const milliseconds = headerValue(headers, 'retry-after-ms');
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Math.ceil(Number(milliseconds));
  const value = headerValue(headers, 'retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  const reference = referenceTime(headers, now);
  if (!Number.isFinite(at) || reference === undefined) return undefined;
  return Math.max(0, at - reference);
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** Go-style durations as in OpenAI's `x-ratelimit-reset-*` headers: `1s`, `6m0s`, `20ms`, `1h2m3.5s`. */
export function parseDuration(value: string): number | undefined {
  const text = value.trim();
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(DURATION_PART)) total += Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 0);
  return Math.ceil(total);
}

/**
 * OpenAI-style rate-limit hints (https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers):
 * the reset of whichever budget is exhausted, else the sooner of the two.
 */
export function retryAfterFromResetHeaders(headers: Headers): number | undefined {
  const requests = headerValue(headers, 'x-ratelimit-reset-requests');
  const tokens = headerValue(headers, 'x-ratelimit-reset-tokens');
  const requestsMs = requests === undefined ? undefined : parseDuration(requests);
  const tokensMs = tokens === undefined ? undefined : parseDuration(tokens);
  if (headerValue(headers, 'x-ratelimit-remaining-requests') === '0' && requestsMs !== undefined) return requestsMs;
  if (headerValue(headers, 'x-ratelimit-remaining-tokens') === '0' && tokensMs !== undefined) return tokensMs;
  const known = [requestsMs, tokensMs].filter((entry): entry is number => entry !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
}
