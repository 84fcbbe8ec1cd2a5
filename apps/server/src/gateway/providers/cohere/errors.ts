import { CONTEXT_LENGTH_EXCEEDED, classifyUpstreamError, normalizeErrorBody, textExcerpt } from '../common/errors.ts';
import { retryAfterFromHeaders } from '../common/retry-after.ts';
import type { UpstreamError } from '../types.ts';
import { CohereErrorBody } from './schemas.ts';

/**
 * Cohere's documented 400s for a prompt over the context window: `too many tokens: total number of
 * tokens in the prompt cannot exceed 4081 - received 4292. …` and `too many tokens: size limit
 * exceeded by 11326 tokens. …`. Its third `too many tokens` 400 (`max tokens must be less than or
 * equal to 4096, …`) is about `max_tokens`, not the prompt, so it is left as it is.
 * https://docs.cohere.com/reference/errors
 */
const CONTEXT_OVERFLOW = /^too many tokens: (total number of tokens in the prompt cannot exceed|size limit exceeded)/i;

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
  const overflow = parsed.success && CONTEXT_OVERFLOW.test(parsed.data.message);
  return classifyUpstreamError(status, {
    providerName: 'Cohere',
    message: parsed.success ? parsed.data.message : textExcerpt(body),
    retryAfterMs: retryAfterFromHeaders(headers, now),
    requestFault: overflow ? CONTEXT_LENGTH_EXCEEDED : undefined,
  });
}
