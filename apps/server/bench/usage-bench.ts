/**
 * Usage-query benchmark: 1,000,000 usage events in PostgreSQL, then the p50/p95/p99 latency
 * of every usage endpoint through the full app (session lookup, validation, serialisation).
 *
 *   npm run bench:usage            (PostgreSQL at BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test)
 *
 * A scratch database is created and dropped. Results are printed as a Markdown table; with
 * --write they replace the "Usage queries" section of docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { parseEnv } from '../src/config/env.ts';
import { createSession, SESSION_COOKIE } from '../src/modules/auth/session.service.ts';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const USERS = 1_000;
/** One in five events belongs to a single heavy account (~200,000 events, ~2,200 a day). */
const HEAVY_SHARE = 5;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WRITE = process.argv.includes('--write');

const ENDPOINTS = [
  '/api/v1/observability/usage/current',
  '/api/v1/observability/metrics?range=24h',
  '/api/v1/observability/metrics?range=7d',
  '/api/v1/observability/metrics?range=30d',
  '/api/v1/observability/metrics?range=90d',
  '/api/v1/observability/usage/activity?limit=5',
  '/api/v1/observability/usage/export?range=90d',
  '/api/v1/billing',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main(): Promise<void> {
  const name = `conductor_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-bench-'));
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DEMO_ACCOUNT: 'off', DATABASE_URL: url.toString() });
  const app = await buildApp({ env, serveWeb: false });
  await app.ready();
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const loadStart = performance.now();
    await db.query(
      `insert into users (id, email, name, auth_method, plan, onboarding_completed, verified)
       select 'bench-user-' || g, 'bench-' || g || '@example.com', 'Bench User ' || g, 'email',
              case when g = 0 then 'pro' else 'free' end, true, true
       from generate_series(0, $1 - 1) g`,
      [USERS],
    );
    // Deterministic pseudo-random spread over 90 days, six models, ~1% errors, 10% test keys.
    await db.query(
      `insert into usage_events (request_id, user_id, environment, provider, model, prompt_tokens, completion_tokens,
                                 cost_micros, latency_ms, status_code, error_type, created_at)
       select 'bench-' || g,
              case when g % $2 = 0 then 'bench-user-0' else 'bench-user-' || (1 + g % ($3 - 1)) end,
              case when g % 10 = 0 then 'test' else 'live' end,
              (array['openai','openai','anthropic','anthropic','google','mistral'])[(1 + g % 6)::int],
              (array['gpt-4o-mini','gpt-4o','claude-3-5-haiku','claude-3-5-sonnet','gemini-1.5-flash','mistral-small-latest'])[(1 + g % 6)::int],
              100 + (g * 7919) % 900, 20 + (g * 104729) % 400, (g * 13) % 5000, 150 + (g * 31) % 2500,
              case when g % 97 = 0 then 502 else 200 end,
              case when g % 97 = 0 then 'api_error' end,
              now() - ((g * 7777) % (90 * 86400)) * interval '1 second'
       from generate_series(1::bigint, $1::bigint) g`,
      [EVENTS, HEAVY_SHARE, USERS],
    );
    // The same fold as recordUsageEvents, in one statement.
    await db.query(
      `insert into usage_daily (user_id, day, environment, provider, model, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum)
       select user_id, (created_at at time zone 'UTC')::date, environment, provider, model, count(*),
              count(*) filter (where status_code >= 400), sum(prompt_tokens), sum(completion_tokens), sum(cost_micros), sum(latency_ms)
       from usage_events group by 1, 2, 3, 4, 5`,
    );
    await db.query('analyze');
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const counts = await db.query(
      `select (select count(*) from usage_events) as events, (select count(*) from usage_daily) as rollup,
              (select count(*) from usage_events where user_id = 'bench-user-0') as heavy`,
    );
    const { events, rollup, heavy } = counts.rows[0] as { events: string; rollup: string; heavy: string };

    const loadBefore = os.loadavg()[0] ?? 0;
    const cookies = new Map<string, string>();
    const cookieFor = async (userId: string) => {
      let cookie = cookies.get(userId);
      if (!cookie) {
        const session = await createSession(app.context.database.db, userId, { remember: true, now: Date.now() });
        cookie = `${SESSION_COOKIE}=${session.token}`;
        cookies.set(userId, cookie);
      }
      return cookie;
    };
    const rows: string[] = [];
    for (const endpoint of ENDPOINTS) {
      for (const [label, pick] of [
        ['heavy account (~200k events)', () => 'bench-user-0'],
        ['typical accounts (~800 events)', () => `bench-user-${1 + Math.floor(Math.random() * (USERS - 1))}`],
      ] as const) {
        const timings: number[] = [];
        for (let index = 0; index < SAMPLES + 20; index += 1) {
          const cookie = await cookieFor(pick());
          const started = performance.now();
          const response = await app.inject({ method: 'GET', url: endpoint, headers: { cookie } });
          const elapsed = performance.now() - started;
          if (response.statusCode !== 200) throw new Error(`${endpoint} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
          if (index >= 20) timings.push(elapsed);
        }
        timings.sort((a, b) => a - b);
        rows.push(
          `| \`${endpoint.replace('/api/v1', '')}\` | ${label} | ${percentile(timings, 50).toFixed(1)} | ${percentile(timings, 95).toFixed(1)} | ${percentile(timings, 99).toFixed(1)} |`,
        );
        process.stdout.write('.');
      }
    }
    // For contrast: the 90-day totals of the heavy account straight from raw events (what the rollup avoids).
    const rawTimings: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      const started = performance.now();
      await db.query(
        `select count(*), sum(prompt_tokens + completion_tokens), sum(cost_micros), avg(latency_ms)
         from usage_events where user_id = 'bench-user-0' and created_at >= now() - interval '90 days'`,
      );
      rawTimings.push(performance.now() - started);
    }
    rawTimings.sort((a, b) => a - b);
    const version = (await db.query('show server_version')).rows[0] as { server_version: string };

    const section = [
      '## Usage queries',
      '',
      `Measured by \`npm run bench:usage\` (apps/server/bench/usage-bench.ts) on ${new Date().toISOString().slice(0, 10)}: PostgreSQL ${version.server_version},`,
      `Node ${process.version}, ${os.cpus().length} CPU cores. ${Number(events).toLocaleString('en-US')} usage events over 90 days for ${USERS.toLocaleString('en-US')} accounts`,
      `(one heavy account holds ${Number(heavy).toLocaleString('en-US')} of them), folded into ${Number(rollup).toLocaleString('en-US')} daily rollup rows; loading took ${loadSeconds.toFixed(0)} s.`,
      `Each figure is ${SAMPLES} sequential requests through the whole app (\`inject()\`: session lookup, validation, query, serialisation), after 20 warm-up requests.`,
      `The target is a p95 under 50 ms. Machine load average during the run: ${loadBefore.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`,
      `(${os.cpus().length} cores; above ${os.cpus().length} the tail latencies measure CPU contention as much as the queries).`,
      '',
      '| Endpoint | Account | p50 (ms) | p95 (ms) | p99 (ms) |',
      '| --- | --- | ---: | ---: | ---: |',
      ...rows,
      '',
      `For contrast, the heavy account's 90-day totals read straight from raw events take ${percentile(rawTimings, 50).toFixed(0)} ms (median of 10);`,
      'the day ranges read the daily rollup instead, and only the 24-hour view (hourly buckets) touches raw events, through the (user_id, created_at) index.',
      '',
    ].join('\n');
    process.stdout.write(`\n\n${section}\n`);
    if (WRITE) writeSection(section);
  } finally {
    await db.end();
    await app.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Replaces (or appends) the "Usage queries" section, leaving every other section of the file alone. */
function writeSection(section: string): void {
  const file = path.resolve(import.meta.dirname, '../../../docs/benchmarks.md');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '# Benchmarks\n';
  }
  const start = text.indexOf('## Usage queries');
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section}`;
  } else {
    const next = text.indexOf('\n## ', start + 1);
    text = `${text.slice(0, start)}${section}${next === -1 ? '' : `\n${text.slice(next + 1)}`}`;
  }
  writeFileSync(file, `${text.trimEnd()}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`usage benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
