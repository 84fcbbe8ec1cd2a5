import type { Env } from './config/env.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Redis } from 'ioredis';
import type { Clock } from './lib/clock.ts';
import type { Mailer } from './lib/mailer.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Secrets } from './lib/secrets.ts';

/** Everything a module needs from the process, built once in `buildApp`. */
export interface AppContext {
  env: Env;
  secrets: Secrets;
  database: DatabaseHandle;
  clock: Clock;
  startedAt: number;
  version: string;
  /** Shared Redis connection when REDIS_URL is set, else null (in-memory stores). */
  redis: Redis | null;
  mailer: Mailer;
  /** Prometheus metrics of this instance (gateway code records upstream figures here). */
  metrics: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    context: AppContext;
  }
}
