/**
 * Metering write benchmark: what one usage event costs the embedded PGlite (on the request
 * thread, as on one CPU: pinned to core 0) by batch size, and how long one flush holds the thread.
 *
 *   npm run bench:metering            (BENCH_ROUNDS events per size, default 200,000)
 *
 * The gateway's own writer (`writeUsageBatch`: binary COPY of the events and the daily rollup
 * upsert) against a fresh database in a scratch directory, with 50 accounts and keys as the
 * gateway benchmark spreads its load. Sizes are interleaved over three repetitions, in a different
 * order each time, so a drifting host and the growing table affect them alike; medians are printed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { writeUsageBatch } from '../src/gateway/metering/usage-batch.repository.ts';
import type { UsageEventInput } from '../src/modules/usage/usage.writer.ts';
import { pinSelf } from './processes.ts';
import { median } from './report.ts';

const SIZES = [1, 100, 500, 1_000, 2_000, 4_000];
const EVENTS = Number(process.env.BENCH_ROUNDS ?? 200_000);
const ACCOUNTS = 50;
const REPETITIONS = 3;

pinSelf(0);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'conductor-metering-'));
const handle = await openDatabase({ dataDir: scratch, thread: 'main' });
const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
await handle.db
  .insert(users)
  .values(
    accounts.map((id, index) => ({ id, email: `metering-${index}@example.com`, name: `Account ${index}`, authMethod: 'email' as const })),
  );

let sequence = 0;
function events(count: number): UsageEventInput[] {
  return Array.from({ length: count }, () => {
    sequence += 1;
    return {
      requestId: `req_${sequence.toString(36).padStart(24, '0')}`,
      userId: accounts[Math.floor(sequence / 900) % ACCOUNTS] as string,
      apiKeyId: null,
      environment: 'live',
      provider: 'openai',
      model: 'gpt-4o-mini',
      promptTokens: 12,
      completionTokens: 9,
      costMicros: 7,
      latencyMs: 1,
      statusCode: 200,
      errorType: null,
      streamed: false,
      keySource: 'hosted',
      createdAt: new Date(),
    };
  });
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** CPU µs per event and the median wall time of one flush (ms) for `size`-event batches. */
async function measure(size: number): Promise<{ perEvent: number; flushMs: number }> {
  // Single-event batches are capped at 2,000: they are the slow case, shown for scale.
  const rounds = Math.max(3, Math.ceil(Math.min(EVENTS / REPETITIONS, size * 2_000) / size));
  const batches = Array.from({ length: rounds }, () => events(size));
  const flushes: number[] = [];
  const cpuBefore = cpuMicros();
  for (const batch of batches) {
    const started = performance.now();
    await writeUsageBatch(handle.db, batch);
    flushes.push(performance.now() - started);
  }
  const perEvent = (cpuMicros() - cpuBefore) / (rounds * size);
  return { perEvent, flushMs: median(flushes) };
}

try {
  await writeUsageBatch(handle.db, events(2_000));
  const results = new Map<number, { perEvent: number[]; flushMs: number[] }>(SIZES.map((size) => [size, { perEvent: [], flushMs: [] }]));
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    // Ascending, then descending, then from the middle out: the table grows as the run goes on.
    const order =
      [SIZES, [...SIZES].reverse(), [...SIZES.slice(SIZES.length / 2), ...SIZES.slice(0, SIZES.length / 2)]][repetition] ?? SIZES;
    for (const size of order) {
      const { perEvent, flushMs } = await measure(size);
      results.get(size)?.perEvent.push(perEvent);
      results.get(size)?.flushMs.push(flushMs);
    }
  }
  console.log(`PGlite on the request thread, ${EVENTS} events per size, ${ACCOUNTS} accounts, medians of ${REPETITIONS} repetitions`);
  console.log('| Events per batch | CPU µs per event | One flush holds the thread (ms) |');
  console.log('| ---: | ---: | ---: |');
  for (const [size, { perEvent, flushMs }] of results) {
    console.log(`| ${size} | ${median(perEvent).toFixed(2)} | ${median(flushMs).toFixed(2)} |`);
  }
} finally {
  await handle.close();
  rmSync(scratch, { recursive: true, force: true });
}
