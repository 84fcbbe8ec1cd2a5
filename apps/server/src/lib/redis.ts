import { Redis } from 'ioredis';
import type { Env } from '../config/env.ts';

/**
 * One shared Redis connection per process when REDIS_URL is set (rate limits, quotas in
 * flight, short-lived auth state); null means the in-memory stores are used.
 */
export function createRedis(env: Env): Redis | null {
  if (!env.REDIS_URL) return null;
  return new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
}
