import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Env } from '../config/env.ts';
import { type EmbeddedClient, PGliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/**
 * The query-builder surface is identical on PGlite and node-postgres; one type keeps
 * repositories driver-agnostic.
 */
export type Database = NodePgDatabase<Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary constant: serialises migrations when several instances start at once. */
const MIGRATION_LOCK_ID = 7_316_001;

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; `undefined` keeps the database in memory (tests). */
  dataDir?: string | undefined;
  /**
   * Where the embedded PGlite runs: `worker`, a thread of its own so its work never blocks the
   * event loop serving requests; `main`, in this thread (PGlite's own client); `auto` (default),
   * the worker when this process may use more than one CPU (its affinity mask, as `taskset` or a
   * container's cpuset leaves it), else the main thread.
   */
  thread?: PgliteThreadSetting | undefined;
  /** Called if the embedded database's worker thread stops on its own (it cannot be used after). */
  onFailure?: ((error: Error) => void) | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir, pgliteThread(options.thread ?? 'auto', os.availableParallelism()), options.onFailure);
}

/** `PGLITE_THREAD`: the environment schema is its one definition. */
export type PgliteThreadSetting = Env['PGLITE_THREAD'];

/**
 * `auto`'s choice. On one CPU a worker cannot run beside the request thread: it only adds thread
 * switches (streaming CPU per request +7–12 % in docs/benchmarks.md) for a smoother event loop.
 */
export function pgliteThread(setting: PgliteThreadSetting, cpus: number): 'worker' | 'main' {
  if (setting !== 'auto') return setting;
  return cpus > 1 ? 'worker' : 'main';
}

/**
 * The embedded database's own client behind a drizzle database (PGlite's, or the worker thread's
 * stand-in, which takes the same `exec` with a COPY blob), or undefined on PostgreSQL.
 */
export function embeddedClient(db: Database): EmbeddedClient | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof PGlite || client instanceof PGliteThread ? (client as EmbeddedClient) : undefined;
}

async function openPglite(
  dataDir: string | undefined,
  thread: 'worker' | 'main',
  onFailure: ((error: Error) => void) | undefined,
): Promise<DatabaseHandle> {
  let directory: string | undefined;
  if (dataDir) {
    directory = path.resolve(dataDir, 'pglite');
    mkdirSync(directory, { recursive: true });
  }
  let client: EmbeddedClient;
  if (thread === 'worker') {
    client = await PGliteThread.open(directory, onFailure);
  } else {
    const pglite = directory ? new PGlite(directory) : new PGlite();
    await pglite.waitReady;
    client = pglite as unknown as EmbeddedClient;
  }
  // drizzle's PGlite driver calls query, transaction and (in migrations) exec: the thread's client has all three.
  const driverClient = client as unknown as PGlite;
  const db = drizzlePglite(driverClient, { schema }) as unknown as Database;
  await migratePglite(drizzlePglite(driverClient), { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db,
    kind: 'pglite',
    ping: () => ping(db),
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrateNodePg(drizzleNodePg(lockClient), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lockClient.release();
  }
  const db = drizzleNodePg(pool, { schema });
  return {
    db,
    kind: 'postgres',
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
