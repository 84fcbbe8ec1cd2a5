import type { ErrorDisposition, UpstreamError } from '../types.ts';
import { redactSecrets } from './secrets.ts';

export interface ErrorDetails {
  /** Display name of the provider, e.g. `OpenAI`. */
  providerName: string;
  /** The upstream's own message, when its error body had one. */
  message?: string | undefined;
  /** The upstream's machine-readable code or type (e.g. `insufficient_quota`, `overloaded_error`). */
  code?: string | undefined;
  retryAfterMs?: number | undefined;
  /**
   * What the client is answered with when the request itself is at fault: the OpenAI envelope's
   * own `code` and `param`, or the equivalent recognised in another provider's message. Kept apart
   * from `code`, which may be a type or status name (`invalid_request_error`, `INVALID_ARGUMENT`)
   * that means nothing to an OpenAI client.
   */
  requestFault?: Readonly<RequestFault> | undefined;
}

export interface RequestFault {
  code?: string | undefined;
  param?: string | undefined;
}

/**
 * A prompt over the model's context window, as OpenAI reports it (`param` is the member to
 * shorten). OpenAI clients branch on this code to trim the conversation, so providers that only
 * say it in words are mapped to it.
 * https://platform.openai.com/docs/guides/error-codes
 */
export const CONTEXT_LENGTH_EXCEEDED: Readonly<RequestFault> = { code: 'context_length_exceeded', param: 'messages' };

function result(
  status: number,
  type: string,
  disposition: ErrorDisposition,
  message: string,
  retryAfterMs: number | undefined,
): UpstreamError {
  return retryAfterMs === undefined ? { status, type, message, disposition } : { status, type, message, disposition, retryAfterMs };
}

/** A code worth relaying is a short identifier, as OpenAI's are (`context_length_exceeded`, `invalid_value`). */
const RELAYABLE_CODE = /^[a-z][a-z0-9_.-]{0,63}$/i;
/**
 * Codes that stay the gateway's: keys, permissions and billing concern the provider key or account
 * (a caller reading `invalid_api_key` would blame its Conductor key), and `upstream_*` is the
 * gateway's own namespace.
 */
const RESERVED_CODE = /key|auth|permission|quota|billing|^upstream_/i;
/** A request member path as OpenAI writes it: `messages`, `messages.[0].content`, `tools[0].function.name`. */
const RELAYABLE_PARAM = /^[\w.[\]-]{1,128}$/;

/**
 * Adds the upstream's code and param to an error the client caused, when they are safe to relay:
 * anything else (free text, a reserved code) is dropped and the gateway's code stands.
 */
function withRequestFault(error: UpstreamError, fault: Readonly<RequestFault> | undefined): UpstreamError {
  const code = fault?.code;
  const param = fault?.param;
  const relayed: UpstreamError = { ...error };
  if (code !== undefined && RELAYABLE_CODE.test(code) && !RESERVED_CODE.test(code)) relayed.code = code;
  if (param !== undefined && RELAYABLE_PARAM.test(param)) relayed.param = param;
  return relayed;
}

/** Quota exhaustion is a 429 that no retry fixes (OpenAI `insufficient_quota`, Gemini billing). */
const QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'billing_not_active']);

/**
 * One classification for every provider: what the client sees and what the router may do.
 * 401/403 are our key's fault (terminal, and the upstream text is never echoed because it may
 * quote the key); 400/413/422 are the request's fault (terminal); 404 is an unknown model or
 * deployment (another target may serve it: fallback); 408/409/429/499/5xx are transient (retryable),
 * except quota or billing exhaustion (402, or a 429 with a quota code: fallback). Adapters pass 402
 * for a provider that reports an account out of credit under another status (Anthropic's and
 * Gemini's 400s), so every provider's billing refusal reads the same.
 * Only the request's own faults (400/413/422…) carry the upstream's code and param to the client
 * (`requestFault`); every other status keeps the gateway's code, so key refusals, limits and
 * failover read the same whatever the provider said.
 */
export function classifyUpstreamError(status: number, details: ErrorDetails): UpstreamError {
  const { providerName, retryAfterMs } = details;
  const upstreamText = details.message ? redactSecrets(details.message) : undefined;
  const described = (fallback: string) => `${providerName}: ${upstreamText ?? fallback}`;

  if (status === 401) {
    return result(401, 'authentication_error', 'terminal', `${providerName} rejected the provider API key (HTTP 401).`, undefined);
  }
  if (status === 403) {
    return result(403, 'permission_error', 'terminal', `${providerName} refused access with the provider API key (HTTP 403).`, undefined);
  }
  if (status === 402) return result(429, 'insufficient_quota', 'fallback', described('billing limit reached'), retryAfterMs);
  if (status === 499) return result(502, 'upstream_error', 'retryable', described('the provider cancelled the request'), retryAfterMs);
  if (status === 404) return result(404, 'not_found_error', 'fallback', described('model or deployment not found'), undefined);
  if (status === 408) return result(504, 'timeout_error', 'retryable', described('the upstream request timed out'), retryAfterMs);
  if (status === 409) return result(409, 'api_error', 'retryable', described('conflict, please retry'), retryAfterMs);
  if (status === 429) {
    if (details.code !== undefined && QUOTA_CODES.has(details.code)) {
      return result(429, 'insufficient_quota', 'fallback', described('quota exceeded'), retryAfterMs);
    }
    return result(429, 'rate_limit_error', 'retryable', described('rate limit exceeded'), retryAfterMs);
  }
  if (status === 529 || status === 503) {
    return result(503, 'upstream_error', 'retryable', described('the provider is overloaded'), retryAfterMs);
  }
  if (status === 504) return result(504, 'timeout_error', 'retryable', described('the provider timed out'), retryAfterMs);
  if (status >= 500) return result(502, 'upstream_error', 'retryable', described(`upstream error (HTTP ${status})`), retryAfterMs);
  if (status >= 400) {
    const rejected =
      status === 413
        ? result(413, 'invalid_request_error', 'terminal', described('request too large'), undefined)
        : result(400, 'invalid_request_error', 'terminal', described(`the provider rejected the request (HTTP ${status})`), undefined);
    return withRequestFault(rejected, details.requestFault);
  }
  // Redirects are never followed (the base URL is pinned), and nothing else is an error status.
  return result(502, 'upstream_error', 'fallback', `${providerName}: unexpected HTTP ${status} from the provider`, undefined);
}

/**
 * Error bodies reach adapters parsed as JSON or as raw text; text that is JSON is parsed so the
 * provider's zod schema can read it, anything else stays text.
 */
export function normalizeErrorBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** A short, single-line excerpt of a non-JSON error body (HTML error pages from proxies and the like). */
export function textExcerpt(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text.slice(0, 200);
}
