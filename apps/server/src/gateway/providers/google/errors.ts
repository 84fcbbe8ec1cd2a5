import { CONTEXT_LENGTH_EXCEEDED, classifyUpstreamError, normalizeErrorBody, textExcerpt } from '../common/errors.ts';
import { parseDuration, retryAfterFromHeaders } from '../common/retry-after.ts';
import type { UpstreamError } from '../types.ts';
import { GeminiErrorBody } from './schemas.ts';

type Headers = Record<string, string | undefined>;

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

/**
 * A prompt over the context window is a 400 `INVALID_ARGUMENT` that says so only in words:
 * `The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).`
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
const CONTEXT_OVERFLOW = /^The input token count \(\d+\) exceeds the maximum number of tokens allowed/i;

/**
 * The status a 400 stands for. Google reports a bad key as 400 `INVALID_ARGUMENT` with ErrorInfo
 * reason `API_KEY_INVALID`: an authentication failure, not a bad request. 400
 * `FAILED_PRECONDITION` is documented for one case, a project whose region has no free tier and
 * no billing enabled (`Gemini API free tier is not available in your country. Please enable
 * billing on your project in Google AI Studio.`, or `User location is not supported for the API
 * use.`): the operator's billing, not the caller's request, so it is answered as a 402 is
 * (insufficient quota, the next target tried).
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
function effectiveStatus(status: number, error: GeminiErrorBody['error'] | undefined, reason: string | undefined): number {
  if (status !== 400) return status;
  if (reason === 'API_KEY_INVALID') return 401;
  if (error?.status === 'FAILED_PRECONDITION') return 402;
  return status;
}

/**
 * Google's `google.rpc.Status` errors (see `effectiveStatus` for the 400s that are not the
 * request's fault). Rate limits (429 `RESOURCE_EXHAUSTED`) carry the wait in a RetryInfo detail
 * (`"retryDelay": "37s"`).
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * https://cloud.google.com/apis/design/errors#error_details
 */
export function mapGeminiError(status: number, rawBody: unknown, headers: Headers, now?: () => number): UpstreamError {
  const body = normalizeErrorBody(rawBody);
  const parsed = GeminiErrorBody.safeParse(body);
  const error = parsed.success ? parsed.data.error : undefined;
  const details = error?.details ?? [];
  const retryDelay = details.find((detail) => detail['@type'] === RETRY_INFO)?.retryDelay;
  const reason = details.find((detail) => detail['@type'] === ERROR_INFO)?.reason;
  const retryAfterMs = retryAfterFromHeaders(headers, now) ?? (retryDelay === undefined ? undefined : parseDuration(retryDelay));
  const overflow = error?.status === 'INVALID_ARGUMENT' && error.message !== undefined && CONTEXT_OVERFLOW.test(error.message);
  return classifyUpstreamError(effectiveStatus(status, error, reason), {
    providerName: 'Google',
    message: error?.message ?? textExcerpt(body),
    code: error?.status,
    retryAfterMs,
    requestFault: overflow ? CONTEXT_LENGTH_EXCEEDED : undefined,
  });
}
