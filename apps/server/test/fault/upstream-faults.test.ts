/**
 * Upstream faults under concurrent load, against the real server process: the primary
 * provider hangs (timeouts), resets connections, answers 5xx storms, streams slowly or breaks
 * mid-stream, while clients keep calling with a fallback policy (primary, then a healthy
 * provider). The gateway must stay up and answer its health check, every request with a
 * healthy fallback must succeed (a stream broken after its first byte must end with an
 * explicit error event, never silently), calls without a fallback must fail fast and cleanly,
 * and memory must stay bounded.
 */
import type { ProviderId } from '@conductor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers.ts';
import type { FakeBehaviour } from '../fake-upstreams/index.ts';
import { closeFakes, type Fakes, fake, startFakes, upstreamEnv } from '../gateway/gateway-helpers.ts';
import { HttpClient } from './http-client.ts';
import { type MemorySample, type ServerProcess, startServerProcess } from './server-process.ts';
import { registerConfirmed } from './writers.ts';

const TIMEOUT_MS = 800;
const CONCURRENCY = 16;
const PHASE_MS = 2_500;
const FALLBACK = JSON.stringify({
  strategy: 'fallback',
  targets: [
    { provider: 'openai', model: 'gpt-4o-mini' },
    { provider: 'anthropic', model: 'claude-3-5-haiku' },
  ],
});
/** Accounts whose keys the clients rotate through: each stays under the Enterprise 1,000 requests per minute. */
const ACCOUNTS = 32;
/**
 * Each phase is bounded in count as well as time: about seven phases run inside one minute,
 * and 7 x 3,500 calls spread over 32 keys stays under their 32 x 1,000 requests per minute
 * however fast the machine is.
 */
const MAX_CALLS_PER_PHASE = 3_500;
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  ok: number;
  /** A stream that ended with an explicit error event after its first byte. */
  streamErrorEvents: number;
  /** Anything else: a failed status, a stream cut without [DONE] or error event, a network error. */
  failures: string[];
  latencies: number[];
}

/** One call with the fallback policy; classifies the result. */
async function call(origin: string, key: string, stream: boolean, outcome: Outcome, policy: string | undefined): Promise<void> {
  const started = performance.now();
  try {
    const response = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(policy ? { 'x-conductor-routing': policy } : {}) },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Are you there?' }], stream }),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    outcome.latencies.push(performance.now() - started);
    if (response.status !== 200) {
      outcome.failures.push(`${response.status} ${text.slice(0, 160)}`);
      return;
    }
    if (!stream) {
      const body = JSON.parse(text) as { choices?: { message?: { content?: string } }[] };
      if (body.choices?.[0]?.message?.content) outcome.ok += 1;
      else outcome.failures.push(`200 without content: ${text.slice(0, 160)}`);
      return;
    }
    const events = text.split('\n\n').filter((block) => block.startsWith('data: '));
    if (events.at(-1) === 'data: [DONE]') outcome.ok += 1;
    else if (events.some((event) => event.startsWith('data: {"error"'))) outcome.streamErrorEvents += 1;
    else outcome.failures.push(`stream cut silently after ${events.length} events`);
  } catch (error) {
    outcome.failures.push(`network: ${(error as Error).message}`);
  }
}

/** `concurrency` clients calling in a loop for `durationMs` (half of them streaming). */
async function load(
  origin: string,
  keys: string[],
  durationMs: number,
  policy: string | undefined,
  concurrency = CONCURRENCY,
): Promise<Outcome> {
  const outcome: Outcome = { ok: 0, streamErrorEvents: 0, failures: [], latencies: [] };
  const until = Date.now() + durationMs;
  let sequence = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      while (Date.now() < until && sequence < MAX_CALLS_PER_PHASE)
        await call(origin, keys[sequence++ % keys.length] as string, index % 2 === 1, outcome, policy);
    }),
  );
  return outcome;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * 0.99) - 1)] ?? Number.NaN;

describe('upstream faults under concurrent load (server process)', () => {
  let fakes: Fakes;
  let database: TestDatabase;
  let server: ServerProcess;
  const keys: string[] = [];
  const memory: { phase: string; sample: MemorySample }[] = [];
  const health: { at: number; status: number; ms: number }[] = [];
  let probing = true;
  let prober: Promise<void>;

  beforeAll(async () => {
    fakes = await startFakes(['openai', 'anthropic']);
    database = await createTestDatabase();
    server = await startServerProcess({
      env: {
        ...upstreamEnv(fakes),
        UPSTREAM_ALLOW_LOCAL: 'true',
        UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
        GATEWAY_BREAKER_FAILURES: '5',
        GATEWAY_BREAKER_COOLDOWN_MS: '500',
        LOG_LEVEL: 'warn',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
    });
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        const owner = new HttpClient({ origin: server.origin });
        for (let index = worker; index < ACCOUNTS; index += 4) {
          owner.jar.clear();
          const email = `upstream-faults-${index}@example.com`;
          await registerConfirmed(owner, 'Fault Owner', email);
          expect((await owner.post('/api/v1/billing/change-plan', { plan: 'enterprise' })).status).toBe(200);
          const created = await owner.post('/api/v1/api-keys', { name: 'faults', environment: 'live', permissions: ['api'] });
          keys.push(created.json<{ key: string }>().key);
        }
        owner.close();
      }),
    );
    // The health check is probed all along: the gateway must keep answering it.
    prober = (async () => {
      while (probing) {
        const started = performance.now();
        const response = await fetch(`${server.origin}/v1/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
        health.push({ at: Date.now(), status: response?.status ?? 0, ms: performance.now() - started });
        await response?.arrayBuffer().catch(() => undefined);
        await sleep(200);
      }
    })();
  });
  afterAll(async () => {
    probing = false;
    await prober;
    await server?.kill('SIGKILL');
    await closeFakes(fakes);
    await database?.drop();
  });

  const primary = () => fake(fakes, 'openai' as ProviderId);

  it('serves every call with a healthy fallback while the primary fails, and stays up with bounded memory', async () => {
    // Warm-up: JIT, connection pools and caches reach their steady size first.
    const warm = await load(server.origin, keys, PHASE_MS, FALLBACK);
    expect(warm.failures).toEqual([]);
    memory.push({ phase: 'warm', sample: await server.memory() });

    const faults: [string, FakeBehaviour][] = [
      ['hang (timeouts)', { kind: 'hang' }],
      ['connection resets', { kind: 'reset' }],
      ['5xx storm', { kind: 'status', status: 503 }],
      ['slow streams', { kind: 'slow-stream', intervalMs: 60 }],
      ['streams breaking mid-way', { kind: 'break-stream', afterEvents: 2 }],
    ];
    const report: string[] = [];
    for (const [name, behaviour] of faults) {
      primary().reset();
      fake(fakes, 'anthropic').reset();
      primary().setBehaviour(behaviour);
      const outcome = await load(server.origin, keys, PHASE_MS, FALLBACK);
      expect(outcome.failures, name).toEqual([]);
      expect(outcome.ok, name).toBeGreaterThan(CONCURRENCY);
      if (behaviour.kind === 'break-stream') {
        // After the first byte there is no failover: the stream ends with an explicit error event.
        expect(outcome.streamErrorEvents, name).toBeGreaterThan(0);
      } else {
        expect(outcome.streamErrorEvents, name).toBe(0);
      }
      report.push(
        `${name}: ${outcome.ok} ok, ${outcome.streamErrorEvents} stream error events, p99 ${Math.round(p99(outcome.latencies))} ms`,
      );
      memory.push({ phase: name, sample: await server.memory() });
    }

    // Without a fallback, the same faults fail fast with a clean error instead of hanging the caller.
    primary().reset();
    primary().setBehaviour({ kind: 'hang' });
    const single = await load(server.origin, keys, 1_500, undefined, 4);
    expect(single.ok).toBe(0);
    expect(
      single.failures.every((failure) => /^(502|503|504) \{"error":\{/.test(failure)),
      single.failures.slice(0, 3).join('\n'),
    ).toBe(true);
    expect(Math.max(...single.latencies)).toBeLessThan(TIMEOUT_MS * 3 + 2_000);

    // Recovery: the primary is healthy again and serves once its breaker closes.
    primary().reset();
    primary().setBehaviour({ kind: 'ok' });
    await sleep(600);
    const recovered = await load(server.origin, keys, PHASE_MS, FALLBACK);
    expect(recovered.failures).toEqual([]);
    expect(primary().requests.length).toBeGreaterThan(0);
    const end = await server.memory();
    memory.push({ phase: 'recovered', sample: end });

    // The process never went down and its health check kept answering promptly.
    expect(server.output.some((line) => line.includes('"level":60'))).toBe(false);
    expect(health.length).toBeGreaterThan(20);
    expect(health.filter((probe) => probe.status !== 200)).toEqual([]);
    expect(Math.max(...health.map((probe) => probe.ms))).toBeLessThan(5_000);

    // Bounded memory: what is retained after GC does not grow with the faults.
    const base = memory[0]?.sample as MemorySample;
    const peakHeap = Math.max(...memory.map((entry) => entry.sample.heapUsed));
    const peakRss = Math.max(...memory.map((entry) => entry.sample.rss));
    expect(end.heapUsed - base.heapUsed).toBeLessThan(32 * MB);
    expect(peakHeap - base.heapUsed).toBeLessThan(48 * MB);
    expect(peakRss).toBeLessThan(base.rss + 160 * MB);
    process.stdout.write(
      `[upstream-faults] ${report.join('; ')}; health probes ${health.length}, slowest ${Math.round(Math.max(...health.map((probe) => probe.ms)))} ms; ` +
        `memory after GC (heap/rss MB): ${memory.map((entry) => `${entry.phase} ${(entry.sample.heapUsed / MB).toFixed(1)}/${(entry.sample.rss / MB).toFixed(0)}`).join(', ')}\n`,
    );
  }, 90_000);
});
