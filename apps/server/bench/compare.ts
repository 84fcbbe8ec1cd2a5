import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatBody, runLoad } from './load.ts';
import { cpuSeconds, pinSelf, scratchDirectory, start, stopChildren } from './processes.ts';

/**
 * A/B of two builds of the gateway on this host: the gateway server of another checkout
 * (BENCH_BASE_DIR, e.g. a `git worktree` of the commit to compare with) as A and this tree's as
 * B, both pinned to core 0 against one fake upstream, measured in alternating windows
 * (BENCH_ROUNDS of BENCH_WINDOW_MS each, the order flipped every round) so that the host's drift
 * hits both alike. Prints each side's CPU µs per request and the median of the per-round B/A
 * ratios. On this shared host single runs of one build vary by ±7 %; an A/A run (both sides the
 * same tree) reads 0.98–1.03, so smaller differences are not resolved.
 * Usage: BENCH_BASE_DIR=/tmp/base BENCH_MODE=stream node apps/server/bench/compare.ts
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const BASE_DIR = process.env.BENCH_BASE_DIR;
if (!BASE_DIR) {
  process.stderr.write('BENCH_BASE_DIR must name the checkout to compare with (a git worktree, node_modules linked or installed)\n');
  process.exit(2);
}
const MODE = process.env.BENCH_MODE === 'stream' ? 'stream' : 'json';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 2_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const scratch = scratchDirectory('conductor-compare-');

pinSelf(1);
const upstream = await start('upstream', 1, [path.join(here, 'fake-upstream.ts'), '0']);
const origin = `http://127.0.0.1:${upstream.port}`;
const sides = [
  { name: 'A', server: path.join(BASE_DIR, 'apps/server/bench/gateway-server.ts') },
  { name: 'B', server: path.join(here, 'gateway-server.ts') },
];
interface Side {
  name: string;
  server: string;
  started: Awaited<ReturnType<typeof start>>;
  keys: string[];
  sequence: number;
  cpu: number[];
}
const targets: Side[] = [];
for (const side of sides) {
  const keysFile = path.join(scratch, `${side.name}.json`);
  const started = await start(side.name, 0, [side.server, origin, '600', keysFile]);
  const keys: string[] = JSON.parse(readFileSync(keysFile, 'utf8'));
  targets.push({ ...side, started, keys, sequence: 0, cpu: [] });
}
const body = chatBody(MODE === 'stream');

/** CPU µs per request of one target over one window (keys rotate as in run.ts). */
async function measure(target: Side, durationMs: number): Promise<number> {
  let before = 0;
  let cpu = 0;
  const result = await runLoad({
    origin: `http://127.0.0.1:${target.started.port}`,
    connections: CONNECTIONS,
    warmupMs: 300,
    durationMs,
    stream: MODE === 'stream',
    body,
    headers: () => ({ authorization: `Bearer ${target.keys[Math.floor(target.sequence++ / 900) % target.keys.length]}` }),
    onWindow: (edge) => {
      if (edge === 'start') before = cpuSeconds(target.started.pid);
      else cpu = cpuSeconds(target.started.pid) - before;
    },
  });
  if (result.errors > 0) process.stdout.write(`${target.name}: ${result.errors} errors\n`);
  return (cpu * 1e6) / result.requests;
}

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] as number;
// Both sides settle first (JIT tiering, the embedded database's WebAssembly): 6 s each.
for (const target of targets) await measure(target, 6_000);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const target of round % 2 === 0 ? targets : [...targets].reverse()) target.cpu.push(await measure(target, WINDOW_MS));
}
for (const target of targets) {
  process.stdout.write(
    `${MODE} ${target.name}: median ${median(target.cpu).toFixed(1)} µs CPU/request (${target.cpu.map((value) => value.toFixed(0)).join(' ')})\n`,
  );
}
const [a, b] = targets as [Side, Side];
process.stdout.write(
  `${MODE} B/A: median of the rounds' ratios ${median(b.cpu.map((value, index) => value / (a.cpu[index] as number))).toFixed(3)}\n`,
);
stopChildren();
process.exit(0);
