import type { ErrorDisposition, UpstreamError } from '../types.ts';

/**
 * Thrown by a `StreamParser` when the upstream reports an error inside the stream (OpenAI's
 * `data: {"error":…}`, Anthropic's `event: error`, …). It carries the classification like any
 * `UpstreamError`, so the gateway can treat it the same way.
 */
export class ProviderStreamError extends Error implements UpstreamError {
  readonly status: number;
  readonly type: string;
  readonly disposition: ErrorDisposition;
  readonly retryAfterMs?: number;
  readonly code?: string;
  readonly param?: string;

  constructor(error: UpstreamError) {
    super(error.message);
    this.name = 'ProviderStreamError';
    this.status = error.status;
    this.type = error.type;
    this.disposition = error.disposition;
    if (error.retryAfterMs !== undefined) this.retryAfterMs = error.retryAfterMs;
    if (error.code !== undefined) this.code = error.code;
    if (error.param !== undefined) this.param = error.param;
  }
}

/** Thrown when an upstream event does not match the provider's documented schema. */
export class ProviderProtocolError extends ProviderStreamError {
  constructor(providerName: string, detail: string) {
    super({ status: 502, type: 'upstream_error', disposition: 'fallback', message: `${providerName}: unexpected response (${detail})` });
    this.name = 'ProviderProtocolError';
  }
}

export function isUpstreamError(value: unknown): value is UpstreamError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof UpstreamError, unknown>>;
  return typeof candidate.status === 'number' && typeof candidate.type === 'string' && typeof candidate.disposition === 'string';
}

/**
 * Thrown by an adapter's `buildRequest` when the request asks for something its provider cannot
 * take (a JSON Schema construct Gemini has no equivalent for): a 400 for this target, and the
 * next target, if the route has one, is tried.
 */
export class ProviderRequestError extends ProviderStreamError {
  constructor(message: string, param: string) {
    super({ status: 400, type: 'invalid_request_error', code: 'unsupported_parameter', disposition: 'fallback', message, param });
    this.name = 'ProviderRequestError';
  }
}
