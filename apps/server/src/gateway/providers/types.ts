import type { ModelInfo, ProviderId } from '@conductor/shared';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, Usage } from '@conductor/shared/openai/chat';

/**
 * The contract every provider adapter implements. Adapters are pure: no fetch, env or
 * clock inside; time and ids come in through the context. Timeouts, retries and SSE
 * parsing live once in `gateway/transport/`.
 */
export interface AdapterContext {
  /** Unix milliseconds. */
  now(): number;
  /** A fresh id for `chatcmpl-…` when the upstream does not provide one. */
  generateId(): string;
}

export interface ProviderCredentials {
  apiKey: string;
  /** Base URL without a trailing slash (validated against the provider's own hosts outside tests). */
  baseUrl: string;
  /** Azure only: the `api-version` query parameter. */
  apiVersion?: string;
}

export interface UpstreamRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

/** One Server-Sent Event as parsed by the transport (`event:` name, joined `data:` lines). */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

export interface StreamStep {
  /** OpenAI-shaped chunks to forward to the client (possibly none). */
  chunks: ChatCompletionChunk[];
  /** Final usage when the upstream reported it. */
  usage?: Usage;
  /** The upstream signalled the end of the stream. */
  done: boolean;
}

export interface StreamParser {
  /** Maps one upstream event; throws an `UpstreamError` for an in-stream error event. */
  push(event: SseEvent): StreamStep;
}

/** How the gateway must treat an upstream failure. */
export type ErrorDisposition = 'retryable' | 'fallback' | 'terminal';

export interface UpstreamError {
  /** HTTP status to answer the client with, when this error is the final one. */
  status: number;
  /** OpenAI error type (`rate_limit_error`, `authentication_error`, `invalid_request_error`, `api_error`, …). */
  type: string;
  message: string;
  disposition: ErrorDisposition;
  /** From Retry-After / provider hints, in milliseconds. */
  retryAfterMs?: number;
  /** The envelope's `code` when the type's usual one does not say enough. */
  code?: string;
  /** The envelope's `param`: the request member at fault, when one is. */
  param?: string;
}

export interface ProviderAdapter {
  id: ProviderId;
  /** The provider's official base URL. */
  defaultBaseUrl: string;
  /** Hostname suffixes accepted for the base URL outside tests (e.g. `.openai.azure.com`). */
  allowedHostSuffixes: readonly string[];
  buildRequest(request: ChatCompletionRequest, model: ModelInfo, credentials: ProviderCredentials): UpstreamRequest;
  /** Maps a successful JSON body (parsed with zod) to an OpenAI chat completion named `publicModel`. */
  parseResponse(body: unknown, publicModel: string, context: AdapterContext): ChatCompletion;
  createStreamParser(publicModel: string, context: AdapterContext): StreamParser;
  /**
   * Maps an error response (status, parsed body or text, headers) to a classified error. The
   * optional context turns a `Retry-After` HTTP-date into a delay when the response has no `Date` header.
   */
  mapError(status: number, body: unknown, headers: Record<string, string | undefined>, context?: AdapterContext): UpstreamError;
}
