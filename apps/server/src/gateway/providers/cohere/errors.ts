import { classifyUpstreamError, normalizeErrorBody, textExcerpt } from '../common/errors.ts';
import { retryAfterFromHeaders } from '../common/retry-after.ts';
import type { UpstreamError } from '../types.ts';
import { CohereErrorBody } from './schemas.ts';

/**
 * Cohere errors are `{"message": …}` with 400, 401, 402 (billing limit), 404, 429, 499
 * (cancelled) and 5xx statuses. https://docs.cohere.com/reference/errors
 */
export function mapCohereError(
  status: number,
  rawBody: unknown,
  headers: Record<string, string | undefined>,
  now?: () => number,
): UpstreamError {
  const body = normalizeErrorBody(rawBody);
  const parsed = CohereErrorBody.safeParse(body);
  return classifyUpstreamError(status, {
    providerName: 'Cohere',
    message: parsed.success ? parsed.data.message : textExcerpt(body),
    retryAfterMs: retryAfterFromHeaders(headers, now),
  });
}
