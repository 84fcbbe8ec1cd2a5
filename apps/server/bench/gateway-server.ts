import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { parseEnv } from '../src/config/env.ts';
import { apiKeys, users } from '../src/db/schema/index.ts';
import { generateApiKey } from '../src/modules/api-keys/api-key.ts';
import { profileIfAsked } from './profile-hook.ts';

/**
 * Conductor's whole server as deployed (embedded database, auth, limits, metering on), aimed
 * at the benchmark upstream. It seeds `accounts` enterprise accounts with one live key each:
 * the load generator spreads requests over them so the plan's 1,000 requests/minute per account
 * is enforced on every request without stopping the benchmark.
 */
const [upstream = 'http://127.0.0.1:1', accountsText = '600', keysFile = ''] = process.argv.slice(2);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-bench-'));
const env = parseEnv({
  NODE_ENV: 'test',
  UPSTREAM_ALLOW_LOCAL: 'true',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  // `auto` (the default): pinned to one core by the benchmark, PGlite runs in the request thread.
  PGLITE_THREAD: process.env.PGLITE_THREAD ?? 'auto',
  DEMO_ACCOUNT: 'off',
  OPENAI_BASE_URL: `${upstream}/v1`,
  OPENAI_API_KEY: 'sk-benchHostedKey000000000000000000',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
});
const app = await buildApp({ env, serveWeb: false });
const db = app.context.database.db;
const keys: string[] = [];
const userRows: (typeof users.$inferInsert)[] = [];
const keyRows: (typeof apiKeys.$inferInsert)[] = [];
for (let index = 0; index < Number(accountsText); index += 1) {
  const id = randomUUID();
  const { key, keyHash, masked } = generateApiKey('live');
  keys.push(key);
  userRows.push({
    id,
    email: `bench-${id}@example.com`,
    name: 'Bench',
    authMethod: 'email',
    plan: 'enterprise',
    onboardingCompleted: true,
    verified: true,
  });
  keyRows.push({ id: randomUUID(), userId: id, name: 'bench', environment: 'live', masked, keyHash, permissions: ['api'] });
}
await db.insert(users).values(userRows);
await db.insert(apiKeys).values(keyRows);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
if (keysFile) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(keysFile, JSON.stringify(keys));
}
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
await profileIfAsked();
/** The embedded database's files go with the server (a full run leaves 150–280 MB of them otherwise). */
const stop = () =>
  void app.close().finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
