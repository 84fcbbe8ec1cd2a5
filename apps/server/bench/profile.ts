import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatBody, runLoad } from './load.ts';
import { cpuSeconds, pinSelf, scratchDirectory, start, stopChildren } from './processes.ts';

/**
 * Profiling aid: the fake upstream and Conductor's gateway server (pinned as in `run.ts`), a
 * steady load of one kind (BENCH_MODE json|stream, BENCH_CONNECTIONS, BENCH_DURATION_MS), the
 * gateway's CPU µs per request printed, and with BENCH_PROFILE=<file> a V8 CPU profile of the
 * gateway written there. BENCH_SERVER=floor profiles the bare passthrough instead. BENCH_SERIES=1
 * prints the CPU per request of every second from a cold start instead (BENCH_DURATION_MS long).
 * Usage: node apps/server/bench/profile.ts
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const MODE = process.env.BENCH_MODE ?? 'json';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 6_000);
const scratch = scratchDirectory('conductor-profile-');
const keysFile = path.join(scratch, 'keys.json');
pinSelf(1);
const upstream = await start('upstream', 1, [path.join(here, 'fake-upstream.ts'), '0']);
const warmupMs = 3_000;
const floor = process.env.BENCH_SERVER === 'floor';
const gateway = await start(
  floor ? 'floor' : 'conductor',
  0,
  floor
    ? [path.join(here, 'floor-server.ts'), `http://127.0.0.1:${upstream.port}`, '0']
    : [path.join(here, 'gateway-server.ts'), `http://127.0.0.1:${upstream.port}`, '600', keysFile],
  { env: { BENCH_PROFILE_DELAY_MS: String(warmupMs + 500), BENCH_PROFILE_MS: String(DURATION_MS - 1_000) } },
);
const keys: string[] = floor ? ['sk-bench-upstream'] : JSON.parse(readFileSync(keysFile, 'utf8'));
let sequence = 0;
const body = chatBody(MODE === 'stream');
const headers = () => ({ authorization: `Bearer ${keys[Math.floor(sequence++ / 900) % keys.length]}` });
/** One load window on the server, with the server's CPU seconds during it. */
async function measure(warmup: number, duration: number) {
  let before = 0;
  let cpu = 0;
  const result = await runLoad({
    origin: `http://127.0.0.1:${gateway.port}`,
    connections: CONNECTIONS,
    warmupMs: warmup,
    durationMs: duration,
    stream: MODE === 'stream',
    body,
    headers,
    onWindow: (edge) => {
      if (edge === 'start') before = cpuSeconds(gateway.pid);
      else cpu = cpuSeconds(gateway.pid) - before;
    },
  });
  return { ...result, cpu };
}
if (process.env.BENCH_SERIES === '1') {
  // From the first request on, one-second windows: how long the server takes to settle.
  const series: string[] = [];
  for (let second = 0; second < DURATION_MS / 1_000; second += 1) {
    const window = await measure(0, 1_000);
    series.push(((window.cpu * 1e6) / window.requests).toFixed(0));
  }
  process.stdout.write(`${MODE} c=${CONNECTIONS}, µs CPU/req in successive seconds: ${series.join(' ')}\n`);
  stopChildren();
  process.exit(0);
}
const result = await measure(warmupMs, DURATION_MS);
const { cpu } = result;
process.stdout.write(
  `${MODE} c=${CONNECTIONS}: ${(result.requests / result.seconds).toFixed(0)} req/s, ${((cpu * 1e6) / result.requests).toFixed(0)} µs CPU/req, ${result.errors} errors\n`,
);
await new Promise((resolve) => setTimeout(resolve, 1_000));
stopChildren();
