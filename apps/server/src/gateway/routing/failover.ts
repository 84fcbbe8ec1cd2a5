import type { ModelInfo } from '@conductor/shared';
import type { UpstreamMetrics } from '../../lib/metrics.ts';
import { GatewayError, errors, publicErrorType } from '../gateway-error.ts';
import type { ProviderAdapter, ProviderCredentials, UpstreamError } from '../providers/types.ts';
import type { BreakerRegistry } from './circuit-breaker.ts';
import { type Cancel, sleep } from '../transport/cancellation.ts';
import { type RetryPolicy, retryDelayMs } from './retry-policy.ts';

/** A target ready to call: model, adapter, key (BYOK or hosted) and its breaker. */
export interface ResolvedTarget {
  model: ModelInfo;
  adapter: ProviderAdapter;
  credentials: ProviderCredentials;
  keySource: 'byok' | 'hosted';
  breakerKey: string;
}

/** One failed attempt, classified: what the route log shows and whether it hurts the breaker. */
export class AttemptFailure extends Error {
  readonly upstream: UpstreamError;
  readonly label: string;
  /** 5xx, timeouts, resets and malformed answers count against the upstream's health; 4xx and 429 do not. */
  readonly unhealthy: boolean;

  constructor(upstream: UpstreamError, label: string, unhealthy: boolean) {
    super(upstream.message);
    this.name = 'AttemptFailure';
    this.upstream = upstream;
    this.label = label;
    this.unhealthy = unhealthy;
  }
}

/** The caller went away: nothing to answer, nothing to retry. */
export class ClientClosedError extends Error {
  constructor() {
    super('client closed the request');
    this.name = 'ClientClosedError';
  }
}

/** What the `x-conductor-route` header reports: the decision and every attempt. */
export class RouteLog {
  readonly strategy: string;
  readonly source: string;
  readonly attempts: string[] = [];

  constructor(strategy: string, source: string) {
    this.strategy = strategy;
    this.source = source;
  }

  add(target: { model: ModelInfo }, outcome: string): void {
    this.attempts.push(`${target.model.provider}/${target.model.id}=${outcome}`);
  }

  toString(): string {
    return `${this.strategy} (${this.source}); ${this.attempts.join(', ') || 'no attempt'}`;
  }
}

export interface FailoverDependencies {
  breakers: BreakerRegistry;
  retry: RetryPolicy;
  /** The breakers' time (`GatewayRuntime.breakerNow`). */
  now(): number;
  cancel: Cancel;
  route: RouteLog;
  /** Time spent waiting between attempts (not the gateway's own overhead). */
  onWait(milliseconds: number): void;
  /** Where each attempt's latency and each upstream error are counted. */
  metrics?: UpstreamMetrics;
}

const CODE_BY_TYPE: Record<string, string> = {
  rate_limit_error: 'upstream_rate_limited',
  timeout_error: 'upstream_timeout',
  authentication_error: 'upstream_authentication_failed',
  permission_error: 'upstream_permission_denied',
  insufficient_quota: 'upstream_quota_exceeded',
  not_found_error: 'upstream_model_not_found',
  invalid_request_error: 'upstream_invalid_request',
};

/**
 * The last upstream failure as the client sees it. The adapter's own code comes first: a request
 * fault relayed from the provider (`context_length_exceeded`) or a reason of the gateway's
 * (`upstream_hosted_key_rejected`); otherwise the type's generic `upstream_*` code.
 */
export function toGatewayError(upstream: UpstreamError): GatewayError {
  const retryAfterSeconds = upstream.retryAfterMs !== undefined ? Math.max(1, Math.ceil(upstream.retryAfterMs / 1000)) : undefined;
  return new GatewayError(
    upstream.status,
    publicErrorType(upstream.type, upstream.status),
    upstream.code ?? CODE_BY_TYPE[upstream.type] ?? 'upstream_error',
    upstream.message,
    {
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      ...(upstream.param !== undefined ? { param: upstream.param } : {}),
    },
  );
}

/** How an answer accepted before its end (a stream) ended, for its upstream's breaker. */
export type AnswerEnd = 'complete' | 'broken' | 'abandoned';

/** What a successful attempt leaves the caller: the value, its target, and (`verdictAtEnd`) how to report its end. */
export interface FailoverResult<T> {
  value: T;
  target: ResolvedTarget;
  /**
   * With `verdictAtEnd`, the breaker hears of the attempt only now: a stream that completed is a
   * success, one the upstream broke mid-way a failure (so an upstream that always dies mid-stream
   * opens its circuit; a success at its start would have reset the count), one the client left
   * neither. Without it, nothing (the verdict was given when the attempt resolved).
   */
  settle(end: AnswerEnd): void;
}

const settled = (): void => undefined;

/**
 * Walks the ordered targets. A target whose circuit is open is skipped; a `terminal` error
 * stops at once (the request itself is wrong); `fallback` moves to the next target; a
 * `retryable` error moves on too, and when it was the last attempt made (the targets after it
 * failed over or were skipped with open circuits) that target is retried with backoff and
 * jitter, never sooner than its Retry-After. The attempt function must only resolve once nothing
 * can fail over any more (for streams: when the first output is ready, before a byte is sent).
 */
export async function runWithFailover<T>(
  targets: readonly ResolvedTarget[],
  deps: FailoverDependencies,
  attempt: (target: ResolvedTarget) => Promise<T>,
  options: { verdictAtEnd?: boolean } = {},
): Promise<FailoverResult<T>> {
  let lastError: UpstreamError | undefined;
  let soonestProbeMs = Number.POSITIVE_INFINITY;
  /** The target of the last failed attempt, while a retry of it may help (its failure was `retryable`). */
  let retryTarget: ResolvedTarget | undefined;

  /** One attempt at a target: its result, or undefined when it failed over or its circuit is open. */
  const tryTarget = async (target: ResolvedTarget): Promise<FailoverResult<T> | undefined> => {
    if (deps.cancel.aborted) throw new ClientClosedError();
    const breaker = deps.breakers.get(target.breakerKey);
    const ticket = breaker.tryAcquire(deps.now());
    if (!ticket) {
      deps.route.add(target, 'circuit-open');
      soonestProbeMs = Math.min(soonestProbeMs, breaker.retryInMs(deps.now()));
      return undefined;
    }
    const started = performance.now();
    try {
      const value = await attempt(target);
      deps.route.add(target, 'ok');
      deps.metrics?.attempt(target.model.provider, 'ok', (performance.now() - started) / 1000);
      if (!options.verdictAtEnd) {
        breaker.onSuccess(ticket);
        return { value, target, settle: settled };
      }
      const settle = (end: AnswerEnd) => {
        if (end === 'complete') breaker.onSuccess(ticket);
        else if (end === 'broken') breaker.onFailure(deps.now(), ticket);
        else breaker.release(ticket);
      };
      return { value, target, settle };
    } catch (error) {
      if (deps.cancel.aborted || error instanceof ClientClosedError) {
        breaker.release(ticket);
        throw new ClientClosedError();
      }
      if (!(error instanceof AttemptFailure)) {
        breaker.release(ticket);
        throw error;
      }
      if (error.unhealthy) breaker.onFailure(deps.now(), ticket);
      else breaker.onSuccess(ticket);
      deps.route.add(target, error.label);
      deps.metrics?.attempt(target.model.provider, error.label, (performance.now() - started) / 1000);
      deps.metrics?.error(target.model.provider, error.upstream.type);
      lastError = error.upstream;
      if (error.upstream.disposition === 'terminal') throw toGatewayError(error.upstream);
      retryTarget = error.upstream.disposition === 'retryable' ? target : undefined;
      return undefined;
    }
  };

  for (const target of targets) {
    const result = await tryTarget(target);
    if (result) return result;
  }
  for (let retry = 0; retryTarget && lastError && retry < deps.retry.maxRetries; retry += 1) {
    const delay = retryDelayMs(deps.retry, retry, lastError.retryAfterMs);
    if (delay === undefined) break;
    deps.onWait(delay);
    try {
      await sleep(delay, deps.cancel);
    } catch {
      throw new ClientClosedError();
    }
    const target = retryTarget;
    retryTarget = undefined;
    const result = await tryTarget(target);
    if (result) return result;
  }
  if (lastError) throw toGatewayError(lastError);
  throw errors.noHealthyTarget(Math.max(1, Math.ceil((Number.isFinite(soonestProbeMs) ? soonestProbeMs : 1_000) / 1000)));
}
