import { randomUUID } from 'node:crypto';
import type { KeyEnvironment, ProviderId } from '@conductor/shared';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { buildApp } from '../../src/app.ts';
import { parseEnv } from '../../src/config/env.ts';
import { apiKeys } from '../../src/db/schema/index.ts';
import { generateApiKey } from '../../src/modules/api-keys/api-key.ts';
import { recordUsageEvents } from '../../src/modules/usage/usage.writer.ts';
import { type FakeUpstream, startFakeUpstream } from '../fake-upstreams/index.ts';
import { createTestApp, createUserWithSession, type TestApp } from '../helpers.ts';
import { afterAll, beforeAll } from 'vitest';

export interface LiveGateway extends TestApp {
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

/** The whole app on a real listener (the SDK needs real HTTP), on a fresh database. */
export async function startGateway(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<LiveGateway> {
  const testApp = await createTestApp({ UPSTREAM_ALLOW_LOCAL: 'true', ...env }, options);
  const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...testApp, origin: address };
}

export interface KeyOptions {
  environment?: KeyEnvironment;
  permissions?: string[];
  expiresAt?: Date | null;
}

/** A user on `plan` with one API key; returns the full key (as shown once in the dashboard). */
export async function createAccountWithKey(
  app: FastifyInstance,
  plan: 'free' | 'pro' | 'enterprise' | 'byo-keys' = 'pro',
  options: KeyOptions = {},
): Promise<{ userId: string; key: string; keyId: string }> {
  const { user } = await createUserWithSession(app, { plan });
  const created = await addKey(app, user.id, options);
  return { userId: user.id, ...created };
}

export async function addKey(app: FastifyInstance, userId: string, options: KeyOptions = {}): Promise<{ key: string; keyId: string }> {
  const environment = options.environment ?? 'live';
  const { key, keyHash, masked } = generateApiKey(environment);
  const keyId = randomUUID();
  await app.context.database.db.insert(apiKeys).values({
    id: keyId,
    userId,
    name: `key ${keyId.slice(0, 4)}`,
    environment,
    masked,
    keyHash,
    permissions: options.permissions ?? ['api'],
    expiresAt: options.expiresAt ?? null,
  });
  return { key, keyId };
}

/** The official SDK, unmodified, pointed at the gateway; no SDK-side retries so tests see each answer. */
export function sdk(origin: string, apiKey: string, options: { maxRetries?: number; timeout?: number } = {}): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: options.maxRetries ?? 0, timeout: options.timeout ?? 20_000 });
}

/** Recognisable hosted keys, so tests can tell which key reached an upstream (and that none leaks). */
export const HOSTED_KEYS: Record<ProviderId, string> = {
  openai: 'sk-hostedOpenAiKey000000000000000001',
  anthropic: 'sk-ant-hostedAnthropicKey00000000001',
  google: 'AIzaHostedGoogleKey0000000000000001',
  azure: 'hosted-azure-key-0000000000000000001',
  mistral: 'hosted-mistral-key-00000000000000001',
  cohere: 'hosted-cohere-key-000000000000000001',
};

const BASE_URL_VARIABLE: Record<ProviderId, string> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  google: 'GOOGLE_BASE_URL',
  azure: 'AZURE_OPENAI_BASE_URL',
  mistral: 'MISTRAL_BASE_URL',
  cohere: 'COHERE_BASE_URL',
};
const KEY_VARIABLE: Record<ProviderId, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_API_KEY',
  azure: 'AZURE_OPENAI_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  cohere: 'COHERE_API_KEY',
};

export type Fakes = Partial<Record<ProviderId, FakeUpstream>>;

/** One fake upstream per provider, on 127.0.0.1. */
export async function startFakes(providers: readonly ProviderId[]): Promise<Fakes> {
  const fakes: Fakes = {};
  for (const provider of providers) fakes[provider] = await startFakeUpstream({ provider });
  return fakes;
}

export async function closeFakes(fakes: Fakes | undefined): Promise<void> {
  await Promise.all(Object.values(fakes ?? {}).map((fake) => fake.close()));
}

/** Base URLs and hosted keys aiming every started provider at its fake. */
export function upstreamEnv(fakes: Fakes, options: { hostedKeys?: boolean } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [provider, fake] of Object.entries(fakes) as [ProviderId, FakeUpstream][]) {
    env[BASE_URL_VARIABLE[provider]] = fake.baseUrl;
    if (options.hostedKeys !== false) env[KEY_VARIABLE[provider]] = HOSTED_KEYS[provider];
  }
  return env;
}

export function fake(fakes: Fakes, provider: ProviderId): FakeUpstream {
  const upstream = fakes[provider];
  if (!upstream) throw new Error(`no fake ${provider} upstream started`);
  return upstream;
}

export function resetFakes(fakes: Fakes): void {
  for (const upstream of Object.values(fakes)) {
    upstream.reset();
    upstream.setBehaviour({ kind: 'ok' });
  }
}

/** A clock tests move by hand (rate windows and months are computed from it). */
export function manualClock(start: number): { now(): number; advance(milliseconds: number): void } {
  let current = start;
  return {
    now: () => current,
    advance(milliseconds: number) {
      current += milliseconds;
    },
  };
}

/** Live tokens already used this month, as the dashboard and the quota read them (the daily rollup). */
export async function seedUsage(app: FastifyInstance, userId: string, tokens: number, at: Date): Promise<void> {
  await recordUsageEvents(app.context.database.db, [
    {
      requestId: randomUUID(),
      userId,
      environment: 'live',
      provider: 'openai',
      model: 'gpt-4o-mini',
      promptTokens: tokens,
      completionTokens: 0,
      statusCode: 200,
      createdAt: at,
    },
  ]);
}

/** A second app instance on the same database and data directory (a scale-out peer). */
export async function startPeer(
  first: LiveGateway,
  env: Record<string, string>,
  clock?: { now(): number },
): Promise<{ app: FastifyInstance; origin: string; close(): Promise<void> }> {
  const app = await buildApp({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: first.dataDir,
      DEMO_ACCOUNT: 'off',
      UPSTREAM_ALLOW_LOCAL: 'true',
      ...env,
    }),
    database: first.app.context.database,
    serveWeb: false,
    ...(clock ? { clock } : {}),
  });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, origin, close: () => app.close() };
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * One Redis connection for a test file, under a key prefix of its own: opened before its tests,
 * closed after them, and every key under the prefix deleted.
 */
export function testRedis(name: string): { readonly redis: Redis; readonly prefix: string } {
  const prefix = `conductor-test-${name}-${randomUUID()}:`;
  let redis: Redis | undefined;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await redis?.quit();
    await deleteRedisPrefix(TEST_REDIS_URL, prefix);
  });
  return {
    get redis() {
      if (!redis) throw new Error('testRedis: the connection opens in beforeAll');
      return redis;
    },
    prefix,
  };
}

/** Deletes every Redis key under a test's prefix. */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
