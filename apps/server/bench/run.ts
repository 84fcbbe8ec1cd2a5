import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chatBody, type LoadResult, percentile, runLoad } from './load.ts';
import { canPin, cores, cpuSeconds, freePort, pinSelf, scratchDirectory, start, stopChildren } from './processes.ts';
import { printReport, type Sample, type TargetName } from './report.ts';

/**
 * `npm run bench:gateway`: one fake OpenAI-compatible upstream, and in the same run the direct
 * path, Conductor's gateway (auth, limits, metering on), a bare Fastify+undici passthrough (the
 * floor) and Portkey's open-source gateway, at 1, 10 and 100 connections, JSON and streaming,
 * in interleaved repetitions. Gateways run pinned to core 0; the upstream and this load
 * generator to core 1. Conductor runs twice: on its embedded PGlite (the default install) and on
 * PostgreSQL (a scratch database on BENCH_POSTGRES_URL's server, skipped when none answers), where
 * the backends' CPU is reported beside the gateway's. Settings: BENCH_DURATION_MS (per run),
 * BENCH_PRIME_MS (load per target and mode before the first run), BENCH_REPS,
 * BENCH_CONNECTIONS, BENCH_TARGETS (a subset, e.g. `direct,conductor-pg,floor`).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2_500);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 400);
/**
 * Load each target gets per mode before the first measured run. Every server here needs about
 * 5 s of load before its CPU per request settles (JIT tiering of the request path; PGlite's
 * WebAssembly): the floor's streaming CPU read 234, 124, 107, 84, then 72–77 µs in successive
 * seconds, Conductor's 524, 257, 207, 253, then 145–160 (docs/benchmarks.md).
 */
const PRIME_MS = Number(process.env.BENCH_PRIME_MS ?? 6_000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,100').split(',').map(Number);
/** Which targets to run (all by default): a subset speeds up iterating on one of them. */
const ONLY = process.env.BENCH_TARGETS?.split(',');
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ACCOUNTS = 600;
/** Requests per key before moving to the next account: under the plan's 1,000 per minute. */
const REQUESTS_PER_KEY = 900;

interface Target {
  name: TargetName;
  origin: string;
  pid: number | undefined;
  /** Database server processes working for this target (PostgreSQL backends). */
  dbPids?: () => Promise<number[]>;
  headers(sequence: number): Record<string, string>;
}

/** A scratch PostgreSQL database for the benchmark, or undefined when no server answers. */
async function scratchDatabase(): Promise<{ url: string; backends(): Promise<number[]>; drop(): Promise<void> } | undefined> {
  const name = `conductor_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    process.stdout.write(`PostgreSQL not available (${(error as Error).message}): conductor-pg is skipped\n`);
    await admin.end().catch(() => undefined);
    return undefined;
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    backends: async () =>
      (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])).rows.map((found) => found.pid),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}

/** CPU seconds used so far by each database backend working for the target. */
async function dbCpuByBackend(target: Target): Promise<Map<number, number> | undefined> {
  if (!target.dbPids) return undefined;
  const used = new Map<number, number>();
  for (const pid of await target.dbPids()) {
    try {
      used.set(pid, cpuSeconds(pid));
    } catch {
      // a backend that ended meanwhile
    }
  }
  return used;
}

/**
 * The backends' CPU between two readings: backends started meanwhile count whole, and one that
 * ended meanwhile (a pool connection closed when idle) drops out of both sides rather than
 * making the difference negative.
 */
function dbCpuBetween(before: Map<number, number> | undefined, after: Map<number, number> | undefined): number {
  if (!before || !after) return Number.NaN;
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

async function main(): Promise<void> {
  if (canPin) pinSelf(1);
  else process.stdout.write(`warning: ${cores} core(s) or no taskset: processes are not pinned, figures are less meaningful\n`);
  const scratch = scratchDirectory('conductor-bench-run-');
  const keysFile = path.join(scratch, 'keys.json');

  const upstream = await start('upstream', 1, [path.join(here, 'fake-upstream.ts'), '0']);
  const upstreamOrigin = `http://127.0.0.1:${upstream.port}`;
  const floor = await start('floor', 0, [path.join(here, 'floor-server.ts'), upstreamOrigin, '0']);
  const wanted = (name: TargetName) => !ONLY || ONLY.includes(name);
  const conductor = await start('conductor', 0, [path.join(here, 'gateway-server.ts'), upstreamOrigin, String(ACCOUNTS), keysFile]);
  const keys: string[] = JSON.parse(readFileSync(keysFile, 'utf8'));
  const database = wanted('conductor-pg') ? await scratchDatabase() : undefined;
  const pgKeysFile = path.join(scratch, 'keys-pg.json');
  const conductorPg = database
    ? await start('conductor-pg', 0, [path.join(here, 'gateway-server.ts'), upstreamOrigin, String(ACCOUNTS), pgKeysFile], {
        env: { BENCH_DATABASE_URL: database.url },
      })
    : undefined;
  const pgKeys: string[] = conductorPg ? JSON.parse(readFileSync(pgKeysFile, 'utf8')) : [];
  const portkeyPort = await freePort();
  const portkeyBin = path.join(root, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  const portkey = await start('portkey', 0, [portkeyBin, `--port=${portkeyPort}`, '--headless'], {
    port: portkeyPort,
    readyUrl: `http://127.0.0.1:${portkeyPort}/`,
  });

  // Each key serves a block of consecutive requests (as real traffic concentrates on few keys),
  // and the blocks walk through enough accounts that no account passes its plan's limit.
  let conductorSequence = 0;
  let conductorPgSequence = 0;
  const bearer = { authorization: 'Bearer sk-bench-upstream' };
  const allTargets: Target[] = [
    { name: 'direct', origin: upstreamOrigin, pid: undefined, headers: () => bearer },
    {
      name: 'conductor',
      origin: `http://127.0.0.1:${conductor.port}`,
      pid: conductor.pid,
      headers: () => ({ authorization: `Bearer ${keys[Math.floor(conductorSequence++ / REQUESTS_PER_KEY) % keys.length]}` }),
    },
    ...(conductorPg && database
      ? [
          {
            name: 'conductor-pg' as const,
            origin: `http://127.0.0.1:${conductorPg.port}`,
            pid: conductorPg.pid,
            dbPids: database.backends,
            headers: () => ({ authorization: `Bearer ${pgKeys[Math.floor(conductorPgSequence++ / REQUESTS_PER_KEY) % pgKeys.length]}` }),
          },
        ]
      : []),
    { name: 'floor', origin: `http://127.0.0.1:${floor.port}`, pid: floor.pid, headers: () => bearer },
    {
      name: 'portkey',
      origin: `http://127.0.0.1:${portkey.port}`,
      pid: portkey.pid,
      headers: () => ({ ...bearer, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamOrigin}/v1` }),
    },
  ];
  const targets = allTargets.filter((target) => wanted(target.name));
  const body = chatBody;

  process.stdout.write(
    `Gateway benchmark: ${REPS} interleaved repetitions of ${DURATION_MS} ms per target, connections ${CONNECTIONS.join('/')}, ${canPin ? 'gateways on core 0, upstream and load generator on core 1' : 'unpinned'}\n`,
  );
  // Bring every target to its steady state (JIT, connection pools, auth caches for all keys).
  for (const stream of [false, true]) {
    for (const target of targets) {
      await runLoad({
        origin: target.origin,
        connections: 10,
        warmupMs: 0,
        durationMs: PRIME_MS,
        stream,
        body: body(stream),
        headers: target.headers,
      });
    }
  }

  const samples: Sample[] = [];
  for (let rep = 0; rep < REPS; rep += 1) {
    for (const stream of [false, true]) {
      for (const connections of CONNECTIONS) {
        const order = targets.map((_, index) => targets[(index + rep) % targets.length] as Target);
        for (const target of order) {
          let cpuBefore = 0;
          let cpu = 0;
          const dbBefore = await dbCpuByBackend(target);
          const result: LoadResult = await runLoad({
            origin: target.origin,
            connections,
            warmupMs: WARMUP_MS,
            durationMs: DURATION_MS,
            stream,
            body: body(stream),
            headers: target.headers,
            onWindow: (edge) => {
              if (edge === 'start') cpuBefore = cpuSeconds(target.pid);
              else cpu = cpuSeconds(target.pid) - cpuBefore;
            },
          });
          // The database's CPU covers the warm-up too: scaled to the requests of the whole run.
          const dbCpu = dbCpuBetween(dbBefore, await dbCpuByBackend(target));
          if (result.errors > 0)
            process.stdout.write(
              `  ${target.name} ${stream ? 'stream' : 'json'} c=${connections}: ${result.errors} errors (${result.firstError})\n`,
            );
          samples.push({
            rep,
            target: target.name,
            mode: stream ? 'stream' : 'json',
            connections,
            rps: result.requests / result.seconds,
            p50: percentile(result.latency, 0.5),
            p99: percentile(result.latency, 0.99),
            ttfb50: stream ? percentile(result.firstByte, 0.5) : Number.NaN,
            ttfb99: stream ? percentile(result.firstByte, 0.99) : Number.NaN,
            // CPU of the gateway process during the measured window, per request answered.
            cpuMicros: target.pid === undefined ? Number.NaN : (cpu * 1e6) / Math.max(1, result.requests),
            dbCpuMicros: (dbCpu * 1e6) / Math.max(1, result.totalRequests),
            errors: result.errors,
          });
        }
      }
    }
  }
  printReport(samples, CONNECTIONS);
  stopChildren();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await database?.drop();
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(stopChildren);
