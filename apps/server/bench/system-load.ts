/**
 * `npm run bench:load`: a bounded load test of the whole server on 127.0.0.1 with autocannon.
 *
 * 1. Mixed load: sign-in, dashboard reads (session cookie) and the gateway (sandbox test keys)
 *    together, for BENCH_LOAD_SECONDS (15) on BENCH_LOAD_CONNECTIONS (20) connections. Sign-in
 *    comes from one address, so the per-address attempt limit (200 a minute) answers most of it
 *    with 429: that is the protection working, reported apart from errors.
 * 2. Sign-in flood: 64 clients from 64 loopback addresses sign in as fast as they can (each
 *    address under its own limit, so argon2 really runs) while the gateway keeps serving. The
 *    server's memory is sampled all along: password hashing is bounded to 4 at a time
 *    (lib/password.ts, 19 MiB each), so memory must stay flat however many sign-ins queue.
 *
 * The server runs as in production (NODE_ENV=production, LOG_LEVEL=warn) on PGlite in a fresh
 * DATA_DIR (PGLITE_THREAD passed on), or on PostgreSQL with BENCH_DATABASE_URL. Exit code 1 when the error rate of a
 * scenario is above 1 % or memory grows past the bound.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { HttpClient, randomLoopback } from '../test/fault/http-client.ts';
import { type ServerProcess, startServerProcess, tempDataDir } from '../test/fault/server-process.ts';
import { emailVerificationToken } from '../src/modules/auth/email-verification.ts';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 20);
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10);
const FLOOD_CLIENTS = 64;
const ACCOUNTS = 60;
const PASSWORD = 'Bench-Load-Harbour-91';
const MB = 1024 * 1024;
/** 4 concurrent argon2id hashes of 19 MiB, plus room for the queue and the other traffic. */
const MEMORY_BOUND_MB = 4 * 19 + 64;

interface Account {
  email: string;
  cookie: string;
  testKey: string;
}

interface ScenarioResult {
  name: string;
  requests: number;
  ok: number;
  throttled: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The server's SESSION_SECRET: the bench signs its accounts' confirmation links with it, as the mailed link would be. */
const SESSION_SECRET = randomBytes(32).toString('hex');

async function setUp(server: ServerProcess): Promise<Account[]> {
  const accounts: Account[] = [];
  // Four workers, each from its own address (registration is limited per address).
  await Promise.all(
    Array.from({ length: 4 }, async (_, worker) => {
      const client = new HttpClient({ origin: server.origin });
      for (let index = worker; index < ACCOUNTS; index += 4) {
        client.jar.clear();
        const email = `load-${index}-${randomBytes(3).toString('hex')}@example.com`;
        const registered = await client.post('/api/v1/auth/register', { name: 'Load Tester', email, password: PASSWORD });
        if (registered.status !== 201) throw new Error(`register: ${registered.status} ${registered.text}`);
        // Confirmed (a production server mails the link; the bench signs the same one), so that the
        // move to Enterprise, for its rate limit, can start the free trial.
        const id = registered.json<{ user: { id: string } }>().user.id;
        const confirmed = await client.post('/api/v1/auth/verify-email', {
          token: emailVerificationToken(SESSION_SECRET, { id, email }, Date.now()),
        });
        if (confirmed.status !== 200) throw new Error(`verify-email: ${confirmed.status} ${confirmed.text}`);
        const upgraded = await client.post('/api/v1/billing/change-plan', { plan: 'enterprise' });
        if (upgraded.status !== 200) throw new Error(`change-plan: ${upgraded.status} ${upgraded.text}`);
        const key = await client.post('/api/v1/api-keys', { name: 'load', environment: 'test', permissions: ['api'] });
        accounts.push({ email, cookie: `cc_session=${client.jar.get('cc_session')}`, testKey: key.json<{ key: string }>().key });
      }
      client.close();
    }),
  );
  return accounts;
}

/** Round-robin over a list, shared by every connection of a scenario. */
function rotate<T>(items: T[]): () => T {
  let index = 0;
  return () => items[index++ % items.length] as T;
}

function cannon(name: string, options: autocannon.Options): Promise<ScenarioResult> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => {
      if (error) return reject(error);
      const throttled = result.statusCodeStats?.['429']?.count ?? 0;
      const total = result.requests.total;
      const ok = result['2xx'];
      resolve({
        name,
        requests: total,
        ok,
        throttled,
        errors: total - ok - throttled + result.errors + result.timeouts,
        p50: result.latency.p50,
        p99: result.latency.p99,
        rps: Math.round(total / result.duration),
      });
    });
  });
}

function mixedLoad(server: ServerProcess, accounts: Account[], seconds: number, connections: number): Promise<ScenarioResult[]> {
  const base = { url: server.origin, duration: seconds };
  const signInConnections = Math.max(1, Math.round(connections * 0.2));
  const dashboardConnections = Math.max(1, Math.round(connections * 0.4));
  const gatewayConnections = Math.max(1, connections - signInConnections - dashboardConnections);
  const nextAccount = rotate(accounts);
  const dashboardPaths = rotate([
    '/api/v1/observability/usage/current',
    '/api/v1/observability/metrics?range=7d',
    '/api/v1/observability/usage/activity',
    '/api/v1/api-keys',
    '/api/v1/billing',
  ]);
  const json = { 'content-type': 'application/json' };
  return Promise.all([
    cannon('sign-in (one address)', {
      ...base,
      connections: signInConnections,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/auth/login',
          setupRequest: (request) => {
            const account = nextAccount();
            return { ...request, headers: json, body: JSON.stringify({ email: account.email, password: PASSWORD }) };
          },
        },
      ],
    }),
    cannon('dashboard reads', {
      ...base,
      connections: dashboardConnections,
      requests: [
        { method: 'GET', setupRequest: (request) => ({ ...request, path: dashboardPaths(), headers: { cookie: nextAccount().cookie } }) },
      ],
    }),
    cannon('gateway (sandbox key)', {
      ...base,
      connections: gatewayConnections,
      requests: [
        {
          method: 'POST',
          path: '/v1/chat/completions',
          setupRequest: (request) => ({
            ...request,
            headers: { ...json, authorization: `Bearer ${nextAccount().testKey}` },
            body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Load test: say something short.' }] }),
          }),
        },
      ],
    }),
  ]);
}

/** 64 addresses signing in at once (argon2 for real), the gateway under load beside them, memory sampled. */
async function signInFlood(server: ServerProcess, accounts: Account[], seconds: number) {
  const baseline = await server.memory();
  let peakRss = server.rssBytes();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, server.rssBytes());
  }, 100);
  const latencies: number[] = [];
  let ok = 0;
  let throttled = 0;
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  const nextAccount = rotate(accounts);
  const flood = Promise.all(
    Array.from({ length: FLOOD_CLIENTS }, async () => {
      const client = new HttpClient({ origin: server.origin, localAddress: randomLoopback() });
      while (Date.now() < until) {
        const account = nextAccount();
        client.jar.clear();
        const started = performance.now();
        try {
          const response = await client.post('/api/v1/auth/login', { email: account.email, password: PASSWORD });
          latencies.push(performance.now() - started);
          if (response.status === 200) ok += 1;
          else if (response.status === 429) throttled += 1;
          else errors += 1;
        } catch {
          errors += 1;
        }
      }
      client.close();
    }),
  );
  const nextKey = rotate(accounts);
  const gateway = cannon('gateway during the flood', {
    url: server.origin,
    duration: seconds,
    connections: 4,
    requests: [
      {
        method: 'POST',
        path: '/v1/chat/completions',
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${nextKey().testKey}` },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Still there?' }] }),
        }),
      },
    ],
  });
  const [, gatewayResult] = await Promise.all([flood, gateway]);
  clearInterval(sampler);
  const after = await server.memory();
  latencies.sort((a, b) => a - b);
  const pick = (fraction: number) => latencies[Math.max(0, Math.ceil(latencies.length * fraction) - 1)] ?? Number.NaN;
  const signIn: ScenarioResult = {
    name: `sign-in flood (${FLOOD_CLIENTS} addresses)`,
    requests: latencies.length + errors,
    ok,
    throttled,
    errors,
    p50: Math.round(pick(0.5)),
    p99: Math.round(pick(0.99)),
    rps: Math.round((ok + throttled + errors) / seconds),
  };
  return { signIn, gateway: gatewayResult, baseline, after, peakRss };
}

function table(results: ScenarioResult[]): string {
  const rows = results.map(
    (result) =>
      `| ${result.name} | ${result.requests} | ${result.rps} | ${result.ok} | ${result.throttled} | ${((100 * result.errors) / Math.max(1, result.requests)).toFixed(2)} % | ${result.p50} | ${result.p99} |`,
  );
  return [
    '| Scenario | Requests | Req/s | 2xx | 429 (limited) | Error rate | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const dataDir = tempDataDir('bench-load');
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const server = await startServerProcess({
    dataDir,
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SESSION_SECRET,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      // The embedded database's thread (auto by default): main or worker, to compare the two.
      ...(process.env.PGLITE_THREAD ? { PGLITE_THREAD: process.env.PGLITE_THREAD } : {}),
    },
  });
  let failed = false;
  try {
    log(
      `Conductor load test: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}`,
    );
    const accounts = await setUp(server);
    log(`${accounts.length} accounts ready. Mixed load: ${SECONDS} s, ${CONNECTIONS} connections...`);
    const mixed = await mixedLoad(server, accounts, SECONDS, CONNECTIONS);
    log(`\n### Mixed load (${SECONDS} s, ${CONNECTIONS} connections)\n\n${table(mixed)}\n`);
    log(`Sign-in flood: ${FLOOD_SECONDS} s...`);
    const flood = await signInFlood(server, accounts, FLOOD_SECONDS);
    log(`\n### Sign-in flood (${FLOOD_SECONDS} s) with the gateway beside it\n\n${table([flood.signIn, flood.gateway])}\n`);
    const growthMb = (flood.peakRss - flood.baseline.rss) / MB;
    log(
      `Server memory: RSS ${(flood.baseline.rss / MB).toFixed(0)} MB before the flood, peak ${(flood.peakRss / MB).toFixed(0)} MB ` +
        `(+${growthMb.toFixed(0)} MB; bound ${MEMORY_BOUND_MB} MB), heap after GC ${(flood.baseline.heapUsed / MB).toFixed(1)} → ${(flood.after.heapUsed / MB).toFixed(1)} MB`,
    );
    for (const result of [...mixed.filter((entry) => !entry.name.startsWith('sign-in')), flood.gateway, flood.signIn]) {
      if (result.errors / Math.max(1, result.requests) > 0.01) {
        log(`FAIL: ${result.name} error rate above 1 %`);
        failed = true;
      }
    }
    const signIn = mixed.find((entry) => entry.name.startsWith('sign-in'));
    if (signIn && signIn.errors > 0) {
      log('FAIL: sign-in answered something other than 200 or 429');
      failed = true;
    }
    if (growthMb > MEMORY_BOUND_MB) {
      log('FAIL: memory grew past the bound during the sign-in flood');
      failed = true;
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
