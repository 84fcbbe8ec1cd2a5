import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Env } from './config/env.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { DEMO_KEY_SWEEP_MS, sweepDemoVisitorKeys, syncDemoAccount } from './db/seed.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { registerPeriodicJob } from './lib/periodic-job.ts';
import { createMailer } from './lib/mailer.ts';
import { OUTBOX_RELAY_MS, registerOutboxRelay } from './lib/outbox-relay.ts';
import { createMetrics } from './lib/metrics.ts';
import { closeRedis, createRedis, redisReady } from './lib/redis.ts';
import { loadSecrets } from './lib/secrets.ts';
import { gatewayPlugin } from './gateway/gateway.plugin.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { BILLING_SWEEP_MS, registerBillingSweep } from './modules/billing/billing-sweep.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { Readiness } from './modules/health/readiness.ts';
import { portalPlugin } from './modules/portal/portal.plugin.ts';
import { publicSitePlugin } from './modules/public-site/public-site.plugin.ts';
import { registerOpenApi } from './modules/support/openapi.ts';
import { supportPlugin } from './modules/support/support.plugin.ts';
import { frameworkErrorHandler, registerErrorHandler, registerJsonParser } from './plugins/error-handler.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerNotFound } from './plugins/not-found.ts';
import { registerBaselineHeaders } from './plugins/baseline-headers.ts';
import { registerSessionAuth, requestLogSerializers } from './plugins/session-auth.ts';
import { registerWeb } from './plugins/web.ts';
import './context.ts';

const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/build/client', import.meta.url));

export interface BuildAppOptions {
  env: Env;
  /** Use an already-open database (tests share one); otherwise one is opened from `env`. */
  database?: DatabaseHandle;
  /** Keep PGlite in memory instead of DATA_DIR (tests). */
  inMemoryDatabase?: boolean;
  clock?: Clock;
  /** Serve the built web app (default true). */
  serveWeb?: boolean;
  logger?: boolean | object;
  /** Sees every route as it is registered (the security suite enumerates routes with it). */
  onRoute?: (route: RouteOptions) => void;
  /** How often the server renews or ends subscriptions whose period is over (default 60 s; 0: never). */
  billingSweepMs?: number;
  /** How often the demo account's ended visitor keys are revoked (0: never; tests call `sweepDemoVisitorKeys`). */
  demoKeySweepMs?: number;
  /** With SMTP: how often the server sends again the e-mail whose delivery failed (default 30 s; 0: never). */
  outboxRelayMs?: number;
  /** The database became unusable for this process (the embedded database's thread stopped): the server should exit. */
  onFatal?: (error: Error) => void;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env } = options;
  const app = Fastify({
    logger: loggerOptions(options.logger ?? { level: env.LOG_LEVEL }),
    // The client address (login throttle, per-IP limits, sessions) comes from X-Forwarded-For only via trusted proxies.
    trustProxy: env.TRUST_PROXY ?? false,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Before any route, so the OpenAPI document (GET /v1/openapi.json) sees every route of the app.
  await registerOpenApi(app, VERSION);

  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase({
      url: env.DATABASE_URL,
      dataDir: options.inMemoryDatabase ? undefined : env.DATA_DIR,
      thread: env.PGLITE_THREAD,
      onFailure: (error) => {
        app.log.fatal({ err: error }, 'the embedded database stopped; the server cannot go on');
        options.onFatal?.(error);
      },
    }));
  const clock = options.clock ?? systemClock;
  const redis = createRedis(env, app.log);
  // Shared limits start shared: wait (briefly) for Redis. If it does not answer, the server starts
  // anyway and counts in this process until it does.
  if (redis && !(await redisReady(redis, 2_000)))
    app.log.warn('Redis did not answer at start-up: throttles and plan limits count in this process until it does');
  const secrets = loadSecrets(env);
  const metrics = createMetrics(redis ? { redisUp: () => redis.status === 'ready' } : {});
  const context: AppContext = {
    env,
    secrets,
    database,
    clock,
    startedAt: clock.now(),
    version: VERSION,
    redis,
    mailer: createMailer({ env, database, clock, secrets, metrics }, app.log),
    metrics,
  };
  app.decorate('context', context);
  app.addHook('onClose', async () => {
    // Notices still going out by SMTP finish (or time out) before the database closes under them;
    // a redelivery run under way stops before its next mail.
    await context.mailer.stop();
    await context.mailer.drain();
    if (ownsDatabase) await database.close();
  });
  if (redis) app.addHook('onClose', async () => closeRedis(redis));

  registerNotFound(app); // first: it learns every route's methods as they are added
  registerBaselineHeaders(app, { https: env.PUBLIC_URL?.startsWith('https:') ?? false });
  await registerSessionAuth(app);
  registerErrorHandler(app);
  registerJsonParser(app);
  registerMetrics(app, context.metrics, env.METRICS_TOKEN);

  app.decorate('readiness', new Readiness());
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(portalPlugin);
  await app.register(publicSitePlugin);
  await app.register(supportPlugin);
  await app.register(gatewayPlugin);
  // Before the listener closes, whose close waits for every response: a stream left open would hold
  // it until the process is killed, so each ends now with an explicit error event (and is metered).
  app.addHook('preClose', async () => {
    app.readiness.beginShutdown();
    app.gateway.streams.endForShutdown();
  });
  registerBillingSweep(app, options.billingSweepMs ?? BILLING_SWEEP_MS);
  registerOutboxRelay(app, options.outboxRelayMs ?? OUTBOX_RELAY_MS);
  await syncDemoAccount(context, app.log); // DEMO_ACCOUNT=on: the demo account and its usage history; off: removed.
  if (env.DEMO_ACCOUNT === 'on') {
    registerPeriodicJob(app, {
      what: 'the demo key sweep',
      intervalMs: options.demoKeySweepMs ?? DEMO_KEY_SWEEP_MS,
      atStart: true,
      run: () => sweepDemoVisitorKeys(context),
    });
  }

  if (options.serveWeb !== false) {
    await registerWeb(app, { distDir: env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST, siteMode: env.SITE_MODE });
  }
  return app;
}

/** Every logger the app builds prints requests through the credential-redacting serializer. */
function loggerOptions(logger: boolean | object): boolean | object {
  if (logger === false) return false;
  const given = logger === true ? {} : (logger as { serializers?: object });
  return { ...given, serializers: { ...given.serializers, ...requestLogSerializers } };
}

export const webDistDirectory = (env: Env) => path.resolve(env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
