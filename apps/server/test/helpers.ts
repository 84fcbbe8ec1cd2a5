import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildAppOptions } from '../src/app.ts';
import { parseEnv } from '../src/config/env.ts';

/** Which database the integration suite runs on: PGlite by default, PostgreSQL when TEST_DATABASE=postgres. */
export const usePostgres = process.env.TEST_DATABASE === 'postgres';
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database for one test file (or nothing, for PGlite). */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!usePostgres) return { url: undefined, drop: async () => undefined };
  const name = `conductor_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * `buildApp()` on a fresh database (in-memory PGlite or a new PostgreSQL database) and a temp DATA_DIR.
 * PGlite runs in the test's own thread unless a test asks otherwise: a test process that starts and
 * stops many WebAssembly worker threads risks V8's abort in its JIT-page bookkeeping
 * (nodejs/node#64500), which took down whole test files in CI. pglite-thread.test.ts and the
 * server-process tests (the real server, `auto`) cover the worker thread.
 */
export async function createTestApp(overrides: Record<string, string> = {}, options: Omit<BuildAppOptions, 'env'> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-test-'));
  const database = await createTestDatabase();
  const env = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DEMO_ACCOUNT: 'off',
    PGLITE_THREAD: 'main',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...overrides,
  });
  // The billing sweep runs only where a test asks for it (it would renew subscriptions on a test's clock);
  // the outbox relay too (tests call mailer.redeliver when they mean to).
  const app = await buildApp({
    env,
    inMemoryDatabase: true,
    serveWeb: false,
    billingSweepMs: 0,
    outboxRelayMs: 0,
    demoKeySweepMs: 0,
    ...options,
  });
  await app.ready();
  return {
    app,
    dataDir,
    async close() {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Inserts a user and opens a session for it; returns the cookie header to send. */
export async function createUserWithSession(
  app: FastifyInstance,
  overrides: Partial<import('../src/modules/users/users.repository.ts').NewUserRow> = {},
): Promise<{ user: import('../src/modules/users/users.repository.ts').UserRow; cookie: string; token: string }> {
  const { insertUser } = await import('../src/modules/users/users.repository.ts');
  const { createSession, SESSION_COOKIE } = await import('../src/modules/auth/session.service.ts');
  const id = randomUUID();
  const user = await insertUser(app.context.database.db, {
    id,
    email: `user-${id.slice(0, 8)}@example.com`,
    name: 'Test User',
    authMethod: 'email',
    plan: 'free',
    onboardingCompleted: true,
    verified: true,
    ...overrides,
  });
  const session = await createSession(app.context.database.db, user.id, { remember: false, now: app.context.clock.now() });
  return { user, token: session.token, cookie: `${SESSION_COOKIE}=${session.token}` };
}
