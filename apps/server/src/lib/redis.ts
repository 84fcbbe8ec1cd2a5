import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Env } from '../config/env.ts';

/** How long a command may wait for a connected Redis's answer before it fails (and its caller falls back). */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * One shared Redis connection per process when REDIS_URL is set (rate limits, quotas in
 * flight, short-lived auth state); null means the in-memory stores are used.
 *
 * Commands fail at once while the connection is down instead of waiting in ioredis's offline
 * queue for reconnection attempts: every caller has a fallback (the throttles count in this
 * process, and so do the gateway's plan limits), and a request must not wait on Redis.
 * With the queue, a gateway call took 1.2–4.7 s and a sign-in 23 s while Redis was down
 * (test/fault/redis-outage.test.ts). ioredis keeps reconnecting in the background.
 */
export function createRedis(env: Env, log: FastifyBaseLogger): Redis | null {
  if (!env.REDIS_URL) return null;
  const redis = new Redis(env.REDIS_URL, {
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // A Redis that stops answering without closing the connection: the first silence this long
    // drops the socket, so later commands fail at once (and the outage is logged) instead of each
    // waiting out its timeout until TCP gives up.
    socketTimeout: REDIS_COMMAND_TIMEOUT_MS * 1.5,
    // A command that timed out has been given up by its caller (which fell back): it must not run
    // later after a reconnect (a quota reservation nobody settles, a sign-on transaction twice).
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  logConnectionErrors(redis, log);
  return redis;
}

/**
 * A second connection for SUBSCRIBE: it keeps the offline queue and has no command timeout, so a
 * subscription made while Redis is away is sent when it comes back (and renewed on reconnects).
 */
export function subscriberFor(redis: Redis, log: FastifyBaseLogger): Redis {
  const subscriber = redis.duplicate({
    enableOfflineQueue: true,
    commandTimeout: undefined,
    socketTimeout: undefined,
    autoResendUnfulfilledCommands: true,
    maxRetriesPerRequest: null,
  });
  // The main connection already reports an outage; this one only at debug level.
  subscriber.on('error', (error: Error) => log.debug({ err: error }, 'Redis subscriber connection error'));
  return subscriber;
}

/**
 * Connection errors in the app's log (ioredis prints them to stderr when nobody listens): the
 * first of an outage at `warn`, then at most one a minute, and the reconnection at `info`.
 */
function logConnectionErrors(redis: Redis, log: FastifyBaseLogger): void {
  let lastLogged = 0;
  let down = false;
  redis.on('error', (error: Error) => {
    const now = Date.now();
    if (down && now - lastLogged < 60_000) return;
    down = true;
    lastLogged = now;
    log.warn({ err: error }, 'Redis unreachable: throttles and plan limits count in this process until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis reachable again');
  });
}

/** Resolves true once Redis is ready, false if it is not within `timeoutMs` (the server starts anyway). */
export function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onEnd = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.once('ready', onReady);
    redis.once('end', onEnd);
  });
}

/**
 * QUIT when connected, given at most `timeoutMs` (a silent peer never answers it); otherwise, or
 * then, drop the connection so that reconnecting stops.
 */
export async function closeRedis(redis: Redis, timeoutMs = REDIS_COMMAND_TIMEOUT_MS): Promise<void> {
  if (redis.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const quit = redis.quit().then(
      () => true,
      () => false,
    );
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const quitted = await Promise.race([quit, late]);
    clearTimeout(timer);
    if (quitted) return;
  }
  redis.disconnect();
}
