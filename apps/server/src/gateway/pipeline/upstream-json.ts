import { PROVIDER_NAMES } from '@conductor/shared';
import type { ChatCompletion, ChatCompletionRequest } from '@conductor/shared/openai/chat';
import type { GatewayRuntime } from '../gateway-runtime.ts';
import { isUpstreamError } from '../providers/common/stream-error.ts';
import type { UpstreamError, UpstreamRequest } from '../providers/types.ts';
import { AttemptFailure, ClientClosedError, type ResolvedTarget } from '../routing/failover.ts';
import type { Cancel } from '../transport/cancellation.ts';
import { networkError, parseJsonOrText, type UpstreamCall } from '../transport/upstream-client.ts';

/** One request's shared state across attempts. */
export interface Exchange {
  runtime: GatewayRuntime;
  /** What the server's keys are sent: `max_tokens` capped when the quota left demands it. */
  request: ChatCompletionRequest;
  /** What the account's own keys are sent: as asked (the quota does not hold their tokens). */
  ownKeyRequest: ChatCompletionRequest;
  cancel: Cancel;
  /** Milliseconds spent waiting on upstreams (excluded from the overhead header). */
  upstreamMs: number;
}

/** A thrown transport or adapter error, as a classified attempt failure. */
export function failureFrom(error: unknown, target: ResolvedTarget, cancel: Cancel): Error {
  if (cancel.aborted) return new ClientClosedError();
  if (error instanceof AttemptFailure || error instanceof ClientClosedError) return error;
  if (isUpstreamError(error)) return new AttemptFailure(error, error.status >= 500 ? 'bad-response' : 'rejected', error.status >= 500);
  const failure = networkError(error, PROVIDER_NAMES[target.model.provider]);
  return new AttemptFailure(failure, failure.failure, true);
}

export function buildUpstreamRequest(exchange: Exchange, target: ResolvedTarget): UpstreamRequest {
  try {
    const request = target.keySource === 'byok' ? exchange.ownKeyRequest : exchange.request;
    return target.adapter.buildRequest(request, target.model, target.credentials);
  } catch (error) {
    throw failureFrom(error, target, exchange.cancel);
  }
}

/** Sends and waits for the status line; transport failures become attempt failures. */
export async function startUpstream(exchange: Exchange, target: ResolvedTarget, upstream: UpstreamRequest): Promise<UpstreamCall> {
  const call = exchange.runtime.transport.start(upstream, exchange.cancel);
  try {
    await call.head;
  } catch (error) {
    throw failureFrom(error, target, exchange.cancel);
  }
  return call;
}

export function isSuccess(call: UpstreamCall): boolean {
  return call.status >= 200 && call.status < 300;
}

/** A non-2xx answer, mapped by the adapter (the body is read first so the connection is reused). */
export async function rejectStatus(exchange: Exchange, target: ResolvedTarget, call: UpstreamCall): Promise<never> {
  let text = '';
  try {
    text = await call.text();
  } catch {
    // the status alone classifies the failure
  }
  const mapped = keyRefusal(
    target,
    target.adapter.mapError(call.status, parseJsonOrText(text), call.headers, exchange.runtime.adapterContext),
  );
  // 5xx and redirects (never followed: a misconfigured upstream) count against the upstream's health.
  throw new AttemptFailure(mapped, String(call.status), call.status >= 500 || call.status < 400);
}

/**
 * A provider refusing the server's hosted key (401/403) is for the server's operator to fix, not
 * the caller, whose Conductor key is fine: it answers 502 and lets the next target try. The
 * account's own key refused stays a terminal 401/403, so a wrong key is noticed, not failed over.
 * Neither counts against the upstream's health (its breaker is shared by every key).
 */
function keyRefusal(target: ResolvedTarget, error: UpstreamError): UpstreamError {
  if (target.keySource !== 'hosted' || (error.type !== 'authentication_error' && error.type !== 'permission_error')) return error;
  const provider = PROVIDER_NAMES[target.model.provider];
  return {
    status: 502,
    type: 'upstream_error',
    code: 'upstream_hosted_key_rejected',
    disposition: 'fallback',
    message: `${provider} refused this server's ${provider} key (HTTP ${error.type === 'authentication_error' ? 401 : 403}); the server's operator must replace it. Your Conductor API key is fine.`,
  };
}

/** One non-streaming attempt: send, read, map to an OpenAI chat completion named after the served model. */
export async function completeOnce(exchange: Exchange, target: ResolvedTarget): Promise<ChatCompletion> {
  const upstream = buildUpstreamRequest(exchange, target);
  const started = performance.now();
  let text: string;
  try {
    const call = await startUpstream(exchange, target, upstream);
    if (!isSuccess(call)) return await rejectStatus(exchange, target, call);
    text = await call.text();
  } catch (error) {
    throw failureFrom(error, target, exchange.cancel);
  } finally {
    exchange.upstreamMs += performance.now() - started;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const message = `${PROVIDER_NAMES[target.model.provider]}: the response was not JSON.`;
    throw new AttemptFailure({ status: 502, type: 'upstream_error', disposition: 'fallback', message }, 'bad-response', true);
  }
  try {
    return target.adapter.parseResponse(json, target.model.id, exchange.runtime.adapterContext);
  } catch (error) {
    throw failureFrom(error, target, exchange.cancel);
  }
}
