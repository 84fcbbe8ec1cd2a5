import type { Env } from './config/env.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Clock } from './lib/clock.ts';
import type { Secrets } from './lib/secrets.ts';

/** Everything a module needs from the process, built once in `buildApp`. */
export interface AppContext {
  env: Env;
  secrets: Secrets;
  database: DatabaseHandle;
  clock: Clock;
  startedAt: number;
  version: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    context: AppContext;
  }
}
