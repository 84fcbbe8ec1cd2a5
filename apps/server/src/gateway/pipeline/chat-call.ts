import { costMicros, findModel, MESSAGES, type ModelInfo, PROVIDER_NAMES } from '@conductor/shared';
import type { ChatCompletionRequest, RoutingPolicy, Usage } from '@conductor/shared/openai/chat';
import { ROUTING_HEADER, SANDBOX_LATENCY_HEADER } from '@conductor/shared/openai/models';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayPrincipal } from '../auth/api-key-auth.ts';
import { chooseKey, type KeyChoice, type Upstreams } from '../credentials/upstreams.ts';
import { errors, GatewayError } from '../gateway-error.ts';
import type { GatewayRuntime } from '../gateway-runtime.ts';
import { type Admitted, QuotaRefusal } from '../limits/account-limiter.ts';
import { type Reservation, settlesFirst } from '../limits/limit-store.ts';
import { sseData } from '../providers/common/chunks.ts';
import { structuredFormatOf } from '../providers/common/response-format.ts';
import { sandboxAnswer, sandboxChunks, sandboxCompletion } from '../providers/sandbox/sandbox.ts';
import { ClientClosedError, type ResolvedTarget, RouteLog, runWithFailover } from '../routing/failover.ts';
import { resolvePolicy } from '../routing/policy.ts';
import { planTargets, type WeightedModel } from '../routing/strategies.ts';
import { estimatePromptTokens, estimateTokens } from '../tokens/token-count.ts';
import { Cancellation, sleep } from '../transport/cancellation.ts';
import { headerString, maxTokensOf, parseChatRequest, sandboxLatency, withMaxTokens } from './chat-request.ts';
import { shutdownRefusal } from './open-streams.ts';
import { overheadMs, type ServedBy, sendGatewayError, servedHeaders, SSE_DONE, startEventStream } from './responses.ts';
import { completeOnce, type Exchange } from './upstream-json.ts';
import { openStream, pumpStream } from './upstream-stream.ts';
import { addressBucket } from '../../lib/client-address.ts';
import { settlesWithin } from '../../lib/deadline.ts';
import { wellFormed } from '../../lib/text.ts';

/** How the shared demo account's usage names a model the gateway does not know. */
const UNKNOWN_MODEL = 'unknown';
/** The longest an answer waits for its quota settlement (a slow shared store); then it goes, and the settlement follows. */
const SETTLE_FIRST_WAIT_MS = 1_000;

/**
 * One `POST /v1/chat/completions`: validate, route, admit against the plan's limits, serve
 * (sandbox for test keys, upstream with failover for live keys, JSON or SSE), then settle the
 * quota reservation and meter the request, whatever its outcome.
 */
export class ChatCall {
  readonly #runtime: GatewayRuntime;
  readonly #request: FastifyRequest;
  readonly #reply: FastifyReply;
  readonly #principal: GatewayPrincipal;
  readonly #cancel = new Cancellation();
  readonly #exchange: Exchange;
  #served: ServedBy = {};
  #provider = 'none';
  #model = 'unknown';
  /** Whose provider key served the request (null until an upstream has served it). */
  #keySource: ResolvedTarget['keySource'] | null = null;
  #status = 200;
  #errorType: string | null = null;
  #streamed = false;
  #usage: Usage | undefined;
  #reservation: Reservation | null = null;
  #route: RouteLog | undefined;
  /**
   * When the request arrived: its admission's instant and its usage event's `created_at`, so the
   * month a quota reservation counts in is the month its tokens are metered in (a request that
   * starts before midnight UTC on the last day of a month and finishes after it belongs to the
   * month it started in, on both sides).
   */
  readonly #startedAt: number;

  constructor(runtime: GatewayRuntime, request: FastifyRequest, reply: FastifyReply, principal: GatewayPrincipal) {
    this.#runtime = runtime;
    this.#request = request;
    this.#reply = reply;
    this.#principal = principal;
    const unset = undefined as unknown as ChatCompletionRequest;
    this.#exchange = { runtime, request: unset, ownKeyRequest: unset, cancel: this.#cancel, upstreamMs: 0 };
    this.#startedAt = runtime.context.clock.now();
  }

  async run(): Promise<void> {
    const raw = this.#reply.raw;
    const onClose = () => {
      if (!raw.writableFinished) this.#cancel.abort();
    };
    raw.once('close', onClose);
    try {
      await this.#serve();
    } catch (error) {
      this.#fail(error);
    } finally {
      raw.off('close', onClose);
      this.#finish();
    }
  }

  /**
   * A request refused before its body could be read (not JSON, not `application/json`, too
   * large): answered like any other error, and metered like every outcome after authentication.
   */
  refuse(error: GatewayError): void {
    try {
      this.#fail(error);
    } finally {
      this.#finish();
    }
  }

  async #serve(): Promise<void> {
    if (!this.#principal.permissions.includes('api')) throw errors.noApiPermission();
    const body = parseChatRequest(this.#request.body);
    this.#model = body.model;
    const { policy, source } = resolvePolicy(
      headerString(this.#request.headers[ROUTING_HEADER]),
      body.conductor,
      this.#principal.routingPolicy,
    );
    const requested = findModel(body.model);
    if (!requested && !policy.targets) throw errors.unknownModel(body.model);
    if (requested) this.#model = requested.id;
    const route = new RouteLog(policy.strategy, source);
    this.#route = route;
    const promptEstimate = estimatePromptTokens(body.messages);
    const serves = formatFilter(body, requested, policy);

    if (this.#principal.environment === 'test') {
      const { targets, unsupported } = planTargets({ policy, requested, source, serves, available: () => true, healthy: () => true });
      const target = targets[0];
      if (!target) throw unsupported.length > 0 ? unsupportedFormat(body, unsupported) : errors.unknownModel(body.model);
      const admission = this.#admit(body, promptEstimate, false);
      if (admission instanceof Promise) await admission;
      return this.#sandbox(body, target.model, route);
    }

    const { upstreams } = this.#runtime;
    const keys = new Map<string, KeyChoice | undefined>();
    const keyFor = (model: ModelInfo) => {
      if (!keys.has(model.provider)) keys.set(model.provider, chooseKey(upstreams[model.provider], this.#principal));
      return keys.get(model.provider);
    };
    const { targets, unavailable, unsupported } = planTargets({
      policy,
      requested,
      source,
      serves,
      available: (model) => keyFor(model) !== undefined,
      // The breaker of the endpoint this account's key goes to (an own Azure resource is not the server's).
      healthy: (model) => {
        const key = keyFor(model);
        return key === undefined ? this.#runtime.isProviderHealthy(model.provider) : this.#runtime.isEndpointHealthy(key.breakerKey);
      },
    });
    // Only targets the caller named are reported as skipped; derived candidates without a key are simply not used.
    if (policy.targets) for (const target of unavailable) route.add(target, 'no-key');
    if (policy.targets) for (const target of unsupported) route.add(target, 'unsupported-format');
    if (targets.length === 0 && unavailable.length === 0 && unsupported.length > 0) throw unsupportedFormat(body, unsupported);
    if (targets.length === 0) throw errors.providerNotConfigured(notConfiguredMessage(unavailable, this.#principal, upstreams));
    const resolved = targets.map((target): ResolvedTarget => {
      const upstream = upstreams[target.model.provider];
      const key = keyFor(target.model) as KeyChoice;
      return {
        model: target.model,
        adapter: upstream.adapter,
        credentials: key.credentials,
        keySource: key.keySource,
        breakerKey: key.breakerKey,
      };
    });
    const admitted = this.#admitTargets(body, promptEstimate, resolved, route);
    const { targets: serving, cap } = admitted instanceof Promise ? await admitted : admitted;
    this.#exchange.request = cap === undefined ? body : withMaxTokens(body, cap);
    this.#exchange.ownKeyRequest = body;
    const deps = {
      breakers: this.#runtime.breakers,
      retry: this.#runtime.retry,
      now: this.#runtime.breakerNow,
      cancel: this.#cancel,
      route,
      onWait: (milliseconds: number) => {
        this.#exchange.upstreamMs += milliseconds;
      },
      metrics: this.#runtime.context.metrics.upstream,
    };
    if (body.stream) {
      const {
        value: stream,
        target,
        settle,
      } = await runWithFailover(serving, deps, (candidate) => openStream(this.#exchange, candidate), {
        verdictAtEnd: true,
      });
      this.#servedBy(target);
      if (this.#runtime.streams.shuttingDown) {
        // The stream opened after the shutdown began: nothing was sent yet, so the caller gets a retryable 503.
        stream.call.abort();
        settle('abandoned');
        throw shutdownRefusal();
      }
      this.#streamed = true;
      this.#reply.hijack();
      const response = startEventStream(this.#reply, this.#headers());
      const outcome = await pumpStream(this.#exchange, stream, response, {
        includeUsage: body.stream_options?.include_usage === true,
        promptEstimate,
        onEnd: settle,
        beforeEnd: (usage) => {
          this.#usage = usage;
          return this.#settleFirst();
        },
      });
      this.#status = outcome.status;
      this.#errorType = outcome.errorType;
      this.#usage = outcome.usage;
      return;
    }
    const { value: completion, target } = await runWithFailover(serving, deps, (candidate) => completeOnce(this.#exchange, candidate));
    this.#servedBy(target);
    // An upstream that reports no usage: the client gets the estimate that is metered (as a stream's last chunk does).
    if (completion.usage.total_tokens === 0)
      completion.usage = estimatedUsage(promptEstimate, completion.choices[0]?.message.content ?? '');
    this.#usage = completion.usage;
    const settling = this.#settleFirst();
    if (settling) {
      await settling;
      if (this.#cancel.aborted) throw new ClientClosedError(); // the client went away meanwhile
    }
    this.#reply.headers(this.#headers()).send(completion);
  }

  /** The served-by and overhead headers, computed when the response starts. */
  #headers(): Record<string, string> {
    return servedHeaders(
      { ...this.#served, ...(this.#route ? { route: this.#route.toString() } : {}) },
      overheadMs(this.#reply, this.#exchange.upstreamMs),
    );
  }

  #servedBy(target: ResolvedTarget): void {
    this.#provider = target.model.provider;
    this.#model = target.model.id;
    this.#keySource = target.keySource;
    this.#served = { provider: target.model.provider, model: target.model.id };
  }

  /**
   * Admission for live targets. The quota holds only traffic on the server's keys: targets that all
   * use the account's own keys are admitted without it, and a quota refusal of a mix goes on with
   * the own-key targets alone (the others are logged as skipped for the quota).
   */
  #admitTargets(
    body: ChatCompletionRequest,
    promptEstimate: number,
    resolved: ResolvedTarget[],
    route: RouteLog,
  ): AdmittedTargets | Promise<AdmittedTargets> {
    const ownKeysOnly = resolved.every((target) => target.keySource === 'byok');
    // Refusals are rejected promises; an admission the store answers at once is a value (no promise on the usual path).
    const admission = this.#admit(body, promptEstimate, ownKeysOnly);
    if (admission instanceof Promise)
      return admission.then(
        (cap) => ({ targets: resolved, cap }),
        (error: unknown) => this.#admitOwnKeys(error, body, promptEstimate, resolved, route),
      );
    return { targets: resolved, cap: admission };
  }

  /** After a refusal: a quota refusal of a mixed list goes on with the own-key targets alone; any other refusal stands. */
  #admitOwnKeys(
    error: unknown,
    body: ChatCompletionRequest,
    promptEstimate: number,
    resolved: ResolvedTarget[],
    route: RouteLog,
  ): AdmittedTargets | Promise<AdmittedTargets> {
    const own = resolved.filter((target) => target.keySource === 'byok');
    if (!(error instanceof QuotaRefusal) || own.length === 0) throw error;
    for (const target of resolved) if (target.keySource !== 'byok') route.add(target, 'quota');
    const admission = this.#admit(body, promptEstimate, true);
    return admission instanceof Promise ? admission.then((cap) => ({ targets: own, cap })) : { targets: own, cap: admission };
  }

  /**
   * Rate limit and quota; gives a lower `max_tokens` when the quota left demands one. A value when
   * the limits answer at once (the in-memory store), so the usual request awaits no promise here.
   */
  #admit(body: ChatCompletionRequest, promptTokens: number, ownKeysOnly: boolean): number | undefined | Promise<number | undefined> {
    const now = this.#startedAt;
    const { userId, sharedAccount } = this.#principal;
    const admission = this.#runtime.limiter.admit({
      accountId: sharedAccount ? `${userId}:${addressBucket(this.#request.ip)}` : userId,
      plan: this.#principal.plan,
      environment: this.#principal.environment,
      ownKeysOnly,
      now,
      promptTokens,
      maxTokens: maxTokensOf(body),
      loadUsedTokens: () => this.#runtime.loadUsedTokens(userId, now),
    });
    const admitted = (value: Admitted) => {
      this.#reservation = value.reservation;
      return value.maxTokensCap;
    };
    return admission instanceof Promise ? admission.then(admitted) : admitted(admission);
  }

  async #sandbox(body: ChatCompletionRequest, model: ModelInfo, route: RouteLog): Promise<void> {
    const latency = sandboxLatency(this.#request.headers[SANDBOX_LATENCY_HEADER]);
    // Metered under the model whose limits apply, even when refused (routing may have chosen another than the one named).
    this.#model = model.id;
    // A prompt over the context window is refused as its provider would (at once, before any SSE
    // byte), and shows in the route header as a live upstream's refusal does.
    const answer = await sandboxAnswer(body, model, maxTokensOf(body)).catch((error: unknown) => {
      if (error instanceof GatewayError) route.add({ model }, String(error.status));
      throw error;
    });
    if (latency > 0) {
      const started = performance.now();
      // The wait ends early when the client goes away, or when the server shuts down (before any byte: a retryable 503).
      const wait = new Cancellation();
      const unsubscribe = this.#cancel.onAbort(() => wait.abort());
      let shutdown = false;
      const untrack = this.#runtime.streams.track(() => {
        shutdown = true;
        wait.abort();
      });
      try {
        await sleep(latency, wait);
      } catch {
        throw shutdown ? shutdownRefusal() : new ClientClosedError();
      } finally {
        unsubscribe();
        untrack();
        this.#exchange.upstreamMs += performance.now() - started;
      }
    }
    route.add({ model }, 'sandbox');
    this.#provider = 'sandbox';
    this.#served = { provider: 'sandbox', model: model.id };
    this.#usage = answer.usage;
    const identity = {
      id: this.#runtime.adapterContext.generateId(),
      created: Math.floor(this.#runtime.context.clock.now() / 1000),
      model: model.id,
    };
    const headers = this.#headers();
    if (!body.stream) {
      this.#reply.headers(headers).send(sandboxCompletion(answer, identity));
      return;
    }
    this.#streamed = true;
    this.#reply.hijack();
    const response = startEventStream(this.#reply, headers);
    const chunks = sandboxChunks(answer, identity, body.stream_options?.include_usage === true);
    response.end(chunks.map(sseData).join('') + SSE_DONE);
  }

  #fail(error: unknown): void {
    const reply = this.#reply;
    if (error instanceof ClientClosedError || this.#cancel.aborted) {
      this.#status = 499;
      this.#errorType = 'client_closed';
      if (!reply.sent) reply.hijack();
      if (!reply.raw.destroyed) reply.raw.destroy();
      return;
    }
    let gatewayError: GatewayError;
    if (error instanceof GatewayError) {
      gatewayError = error;
    } else {
      this.#request.log.error({ err: error }, 'gateway request failed');
      gatewayError = new GatewayError(500, 'api_error', 'internal_error', MESSAGES.serverError);
    }
    this.#status = gatewayError.status;
    this.#errorType = gatewayError.type;
    if (reply.sent || reply.raw.headersSent) {
      if (!reply.raw.writableEnded) reply.raw.end();
      return;
    }
    sendGatewayError(reply, gatewayError, this.#headers());
  }

  /**
   * Replaces the quota reservation, once, with the tokens used. Undefined when there is nothing
   * left to settle; a failure is logged (the reservation then runs out on its own).
   */
  #settle(): Promise<void> | undefined {
    const reservation = this.#reservation;
    if (!reservation) return undefined;
    this.#reservation = null;
    // Tokens served on the account's own key leave the quota as they found it.
    const usage = this.#usage;
    const tokens = this.#keySource === 'byok' ? 0 : (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0);
    return this.#runtime.limiter
      .settle(reservation, tokens)
      .catch((error: unknown) => this.#runtime.log.warn({ err: error }, 'could not settle a quota reservation'));
  }

  /**
   * Before the answer's last byte: a reservation that left less of the quota than it holds when
   * it was admitted settles first (waited for at most SETTLE_FIRST_WAIT_MS), so the client's next
   * call (on any instance) finds the quota as this one left it, not still held ("quota busy") or
   * a smaller completion budget. Other reservations settle after the answer, off its latency.
   */
  #settleFirst(): Promise<unknown> | undefined {
    if (!this.#reservation || !settlesFirst(this.#reservation)) return undefined;
    const settling = this.#settle();
    return settling && settlesWithin(settling, SETTLE_FIRST_WAIT_MS);
  }

  #finish(): void {
    const { environment, userId, keyId } = this.#principal;
    const usage = this.#usage;
    const promptTokens = usage?.prompt_tokens ?? 0;
    const completionTokens = usage?.completion_tokens ?? 0;
    void this.#settle();
    const model = findModel(this.#model);
    // The shared demo account's usage is shown to every visitor: a name it does not know is one a
    // visitor typed, so it is metered as `unknown` there (elsewhere, the caller's own typo is useful).
    const modelName = model?.id ?? (this.#principal.sharedAccount ? UNKNOWN_MODEL : this.#model);
    this.#runtime.meter.record({
      requestId: this.#request.id,
      userId,
      apiKeyId: keyId,
      environment,
      provider: this.#provider,
      model: wellFormed(modelName.slice(0, 128)),
      promptTokens,
      completionTokens,
      costMicros: environment === 'test' ? 0 : costMicros(model, promptTokens, completionTokens),
      latencyMs: Math.round(this.#reply.elapsedTime),
      statusCode: this.#status,
      errorType: this.#errorType,
      streamed: this.#streamed,
      keySource: this.#keySource,
      createdAt: new Date(this.#startedAt),
    });
  }
}

/** The targets a live request may be served by once admitted, and the `max_tokens` cap its quota set. */
interface AdmittedTargets {
  targets: ResolvedTarget[];
  cap: number | undefined;
}

/**
 * For a request whose `response_format` asks for JSON: which models can serve it. The model a
 * caller names itself (`single`, or first in a derived `fallback`) is not swapped for one that
 * can: the request is refused instead. Undefined for plain text (every model serves it).
 */
function formatFilter(
  body: ChatCompletionRequest,
  requested: ModelInfo | undefined,
  policy: RoutingPolicy,
): ((model: ModelInfo) => boolean) | undefined {
  const format = structuredFormatOf(body);
  if (!format) return undefined;
  const serves = (model: ModelInfo) => model.responseFormats.includes(format);
  const named = !policy.targets && (policy.strategy === 'single' || policy.strategy === 'fallback');
  if (named && requested && !serves(requested)) throw errors.unsupportedResponseFormat(format, [requested]);
  return serves;
}

function unsupportedFormat(body: ChatCompletionRequest, unsupported: WeightedModel[]): GatewayError {
  const format = structuredFormatOf(body) ?? 'json_object';
  return errors.unsupportedResponseFormat(
    format,
    unsupported.map((target) => target.model),
  );
}

/** When an upstream reports no usage: the 4-characters-per-token estimate. */
function estimatedUsage(prompt: number, content: string | null): Usage {
  const completion = estimateTokens(content ?? '');
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function notConfiguredMessage(unavailable: WeightedModel[], principal: GatewayPrincipal, upstreams: Upstreams): string {
  const ids = [...new Set(unavailable.map((target) => target.model.provider))];
  const providers = ids.map((provider) => PROVIDER_NAMES[provider]).join(', ') || 'this model';
  // A provider the server has no endpoint for (Azure OpenAI without its resource URL): the caller's own key needs its own.
  if (ids.length > 0 && ids.every((provider) => upstreams[provider].baseUrl === undefined))
    return `${providers} is not configured on this server: add your own key with its resource URL in the dashboard, or choose another model.`;
  return principal.plan === 'byo-keys'
    ? `No key for ${providers}: add your own provider key in the dashboard, or route to a provider you have a key for.`
    : `${providers} is not configured on this server: add your own provider key in the dashboard, or choose another model.`;
}
