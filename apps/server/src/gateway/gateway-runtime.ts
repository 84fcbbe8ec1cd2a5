import { randomBytes } from 'node:crypto';
import type { ProviderId } from '@conductor/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { usageTotals } from '../modules/users/users.repository.ts';
import { ApiKeyAuthenticator, applyRemoteInvalidation, onAccountInvalidated, registerRemoteInvalidator } from './auth/api-key-auth.ts';
import { KeyLookupGuard } from './auth/key-lookup-guard.ts';
import { closeRedis, subscriberFor } from '../lib/redis.ts';
import { hostedProviders, loadUpstreams, type Upstreams } from './credentials/upstreams.ts';
import { AccountLimiter, monthOf } from './limits/account-limiter.ts';
import { FailoverLimitStore } from './limits/failover-limit-store.ts';
import { MemoryLimitStore } from './limits/memory-limit-store.ts';
import { RedisLimitStore } from './limits/redis-limit-store.ts';
import { UsageMeter, usageBatchSize } from './metering/usage-meter.ts';
import { OpenStreams } from './pipeline/open-streams.ts';
import type { AdapterContext } from './providers/types.ts';
import { BreakerRegistry } from './routing/circuit-breaker.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './routing/retry-policy.ts';
import { UpstreamTransport } from './transport/upstream-client.ts';

/** Everything the gateway's routes share, built once per app. */
export interface GatewayRuntime {
  context: AppContext;
  log: FastifyBaseLogger;
  authenticator: ApiKeyAuthenticator;
  limiter: AccountLimiter;
  meter: UsageMeter;
  /** Streams in progress: a shutdown ends them (`endForShutdown`) before it waits for the listener to close. */
  streams: OpenStreams;
  breakers: BreakerRegistry;
  transport: UpstreamTransport;
  upstreams: Upstreams;
  retry: RetryPolicy;
  /** The breakers' time: monotonic, so setting the wall clock neither holds a circuit open nor closes it early. */
  breakerNow(): number;
  adapterContext: AdapterContext;
  /** Months' usage from the database, for the quota counters' first load. */
  loadUsedTokens(userId: string, now: number): Promise<number>;
  /** Providers with a hosted key whose circuit is not open. */
  healthyProviders(): ProviderId[];
  /** The server's own endpoint of a provider (its hosted key's). */
  isProviderHealthy(provider: ProviderId): boolean;
  /** One endpoint by its breaker key (`KeyChoice.breakerKey`: an account's own Azure resource has its own). */
  isEndpointHealthy(breakerKey: string): boolean;
  close(): Promise<void>;
}

/** Random bytes drawn in blocks: one system call per 256 ids instead of one per id. */
const ID_BYTES = 18;
let idPool = Buffer.alloc(0);
let idOffset = 0;

/** `chatcmpl-` + 24 random base64url characters. */
function completionId(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 256);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return `chatcmpl-${idPool.toString('base64url', idOffset - ID_BYTES, idOffset)}`;
}

export function createGatewayRuntime(context: AppContext, log: FastifyBaseLogger): GatewayRuntime {
  const { env, database, clock, redis } = context;
  const upstreams = loadUpstreams(env);
  const breakers = new BreakerRegistry({ failureThreshold: env.GATEWAY_BREAKER_FAILURES, cooldownMs: env.GATEWAY_BREAKER_COOLDOWN_MS });
  const failuresPerMinute = env.GATEWAY_KEY_LOOKUP_FAILURES;
  const guard =
    failuresPerMinute > 0 ? new KeyLookupGuard({ redis, redisPrefix: env.GATEWAY_REDIS_PREFIX, log, failuresPerMinute }) : undefined;
  const authenticator = new ApiKeyAuthenticator({
    db: database.db,
    encryptionKey: context.secrets.encryptionKey,
    log,
    now: clock.now,
    ...(guard ? { guard } : {}),
  });
  const throttledError = (message: string) => {
    let last = Number.NEGATIVE_INFINITY;
    return (error: unknown) => {
      if (clock.now() - last < 10_000) return;
      last = clock.now();
      log.error({ err: error }, message);
    };
  };
  // Drops are logged at once, then summed per reason and logged at most every 10 s (and at close).
  const dropped = new Map<string, { entries: number; tokens: number }>();
  let dropLog: NodeJS.Timeout | undefined;
  const logDropped = () => {
    for (const [reason, total] of dropped) {
      log.warn(
        { reason, ...total },
        'plan-limit usage that Redis missed was dropped: its shared quota counts for the month are that many tokens low',
      );
    }
    dropped.clear();
  };
  const reportDropped = (reason: string, tokens: number) => {
    const total = dropped.get(reason) ?? { entries: 0, tokens: 0 };
    total.entries += 1;
    total.tokens += tokens;
    dropped.set(reason, total);
    if (dropLog) return;
    logDropped();
    dropLog = setTimeout(() => {
      dropLog = undefined;
      logDropped();
    }, 10_000).unref();
  };
  // How long after a request settles its usage event is surely in the usage table.
  const meteringLagMs = env.GATEWAY_USAGE_FLUSH_MS + 1_000;
  const store = redis
    ? new FailoverLimitStore(new RedisLimitStore(redis, env.GATEWAY_REDIS_PREFIX, { now: clock.now, meteringLagMs }), {
        onFailure: throttledError('Redis unavailable for the plan limits: each instance counts them on its own until it is back'),
        onDropped: reportDropped,
        now: clock.now,
        meteringLagMs,
      })
    : new MemoryLimitStore();
  const limiter = new AccountLimiter(
    store,
    throttledError(
      "limits unavailable: the month's usage could not be read (requests are served without the quota, within the rate limit) or the limit store failed (served without limits)",
    ),
  );
  // A plan change (Free to Pro and back, within a month) must not leave Free's count from before it.
  // The shared (Redis) count is reset by the instance that made the change only; the others, told
  // through Redis, mark their own counts in memory stale.
  const stopForgetting = onAccountInvalidated((userId, origin) => {
    store
      .forgetQuota(userId, monthOf(clock.now()).month, origin === 'here' ? 'shared' : 'instance')
      .catch((error: unknown) => log.warn({ err: error }, 'could not reset a plan-limit count'));
  });
  const meter = new UsageMeter({
    db: database.db,
    log,
    flushIntervalMs: env.GATEWAY_USAGE_FLUSH_MS,
    batchSize: usageBatchSize(env.GATEWAY_USAGE_BATCH, database.kind),
  });
  const transport = new UpstreamTransport({ timeoutMs: env.UPSTREAM_TIMEOUT_MS });

  // With Redis, a key revoked on one instance is dropped from every instance's cache at once.
  const channel = `${env.GATEWAY_REDIS_PREFIX}gateway:invalidate`;
  const subscriber = redis ? subscriberFor(redis, log) : null;
  let unregister: (() => void) | undefined;
  if (redis && subscriber) {
    subscriber.subscribe(channel).catch((error: unknown) => log.warn({ err: error }, 'gateway cache invalidation channel unavailable'));
    subscriber.on('message', (received: string, message: string) => {
      if (received !== channel) return;
      const [kind, value] = message.split(' ', 2);
      if ((kind === 'key' || kind === 'account') && value) applyRemoteInvalidation(kind, value);
    });
    unregister = registerRemoteInvalidator((kind, value) => {
      redis
        .publish(channel, `${kind} ${value}`)
        .catch((error: unknown) => log.warn({ err: error }, 'could not publish a cache invalidation'));
    });
  }

  const breakerNow = clock.monotonic ?? clock.now;
  const isEndpointHealthy = (breakerKey: string) => breakers.isHealthy(breakerKey, breakerNow());
  const isProviderHealthy = (provider: ProviderId) => isEndpointHealthy(upstreams[provider].breakerKey);
  context.metrics.upstream.watchBreakers(() => breakers.states(breakerNow()));

  return {
    context,
    log,
    authenticator,
    limiter,
    meter,
    streams: new OpenStreams(),
    breakers,
    transport,
    upstreams,
    retry: DEFAULT_RETRY_POLICY,
    breakerNow,
    adapterContext: { now: clock.now, generateId: completionId },
    async loadUsedTokens(userId, now) {
      const today = new Date(now).toISOString().slice(0, 10);
      return (await usageTotals(database.db, userId, `${today.slice(0, 7)}-01`, today)).tokensThisMonth;
    },
    healthyProviders: () => hostedProviders(upstreams).filter(isProviderHealthy),
    isProviderHealthy,
    isEndpointHealthy,
    async close() {
      unregister?.();
      stopForgetting();
      authenticator.close();
      clearTimeout(dropLog);
      logDropped();
      if (store instanceof FailoverLimitStore && store.missed > 0) {
        log.warn(
          { entries: store.missed },
          'plan-limit usage that Redis missed is lost with this instance: the shared quota counts are that much low',
        );
      }
      await meter.close();
      await transport.close();
      if (subscriber) await closeRedis(subscriber);
    },
  };
}
