import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoadResult, percentile, runLoad } from './load.ts';
import { printReport, type Sample } from './report.ts';

/**
 * `npm run bench:gateway`: one fake OpenAI-compatible upstream, and in the same run the direct
 * path, Conductor's gateway (auth, limits, metering on), a bare Fastify+undici passthrough (the
 * floor) and Portkey's open-source gateway, at 1, 10 and 100 connections, JSON and streaming,
 * in interleaved repetitions. Gateways run pinned to core 0; the upstream and this load
 * generator to core 1. Settings: BENCH_DURATION_MS (per run), BENCH_REPS, BENCH_CONNECTIONS.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2_500);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 400);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,100').split(',').map(Number);
const ACCOUNTS = 600;
/** Requests per key before moving to the next account: under the plan's 1,000 per minute. */
const REQUESTS_PER_KEY = 900;

const cores = os.availableParallelism();
const canPin = cores >= 2 && hasTaskset();
const CLOCK_TICKS = Number(safeExec('getconf', ['CLK_TCK']) ?? 100) || 100;
const children: ChildProcess[] = [];

function hasTaskset(): boolean {
  return safeExec('taskset', ['--version']) !== undefined;
}

function safeExec(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts a Node program pinned to a core; resolves with its pid and the port it prints (or `port`). */
async function start(
  name: string,
  core: number,
  args: string[],
  options: { port?: number; readyUrl?: string } = {},
): Promise<{ pid: number; port: number }> {
  const command = canPin ? 'taskset' : process.execPath;
  const commandArgs = canPin ? ['-c', String(core), process.execPath, ...args] : args;
  // Portkey prints start-up noise on stderr; the other programs' stderr is shown (crashes must be seen).
  const child = spawn(command, commandArgs, {
    cwd: root,
    stdio: ['ignore', 'pipe', name === 'portkey' ? 'ignore' : 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  children.push(child);
  if (!child.pid) throw new Error(`${name} did not start`);
  if (options.readyUrl) {
    child.stdout?.resume();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const ok = await fetch(options.readyUrl).then(
        () => true,
        () => false,
      );
      if (ok) return { pid: child.pid, port: options.port ?? 0 };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${name} did not become ready`);
  }
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (data: Buffer) => {
      buffer += data.toString();
      const newline = buffer.indexOf('\n');
      if (newline !== -1) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  child.stdout?.resume();
  return { pid: child.pid, port: JSON.parse(line).port };
}

/** User plus system CPU seconds of a process, from /proc. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

interface Target {
  name: 'direct' | 'conductor' | 'floor' | 'portkey';
  origin: string;
  pid: number | undefined;
  headers(sequence: number): Record<string, string>;
}

async function main(): Promise<void> {
  if (canPin) execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  else process.stdout.write(`warning: ${cores} core(s) or no taskset: processes are not pinned, figures are less meaningful\n`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'conductor-bench-run-'));
  const keysFile = path.join(scratch, 'keys.json');

  const upstream = await start('upstream', 1, [path.join(here, 'fake-upstream.ts'), '0']);
  const upstreamOrigin = `http://127.0.0.1:${upstream.port}`;
  const floor = await start('floor', 0, [path.join(here, 'floor-server.ts'), upstreamOrigin, '0']);
  const conductor = await start('conductor', 0, [path.join(here, 'gateway-server.ts'), upstreamOrigin, String(ACCOUNTS), keysFile]);
  const keys: string[] = JSON.parse(readFileSync(keysFile, 'utf8'));
  const portkeyPort = await freePort();
  const portkeyBin = path.join(root, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  const portkey = await start('portkey', 0, [portkeyBin, `--port=${portkeyPort}`, '--headless'], {
    port: portkeyPort,
    readyUrl: `http://127.0.0.1:${portkeyPort}/`,
  });

  // Each key serves a block of consecutive requests (as real traffic concentrates on few keys),
  // and the blocks walk through enough accounts that no account passes its plan's limit.
  let conductorSequence = 0;
  const bearer = { authorization: 'Bearer sk-bench-upstream' };
  const targets: Target[] = [
    { name: 'direct', origin: upstreamOrigin, pid: undefined, headers: () => bearer },
    {
      name: 'conductor',
      origin: `http://127.0.0.1:${conductor.port}`,
      pid: conductor.pid,
      headers: () => ({ authorization: `Bearer ${keys[Math.floor(conductorSequence++ / REQUESTS_PER_KEY) % keys.length]}` }),
    },
    { name: 'floor', origin: `http://127.0.0.1:${floor.port}`, pid: floor.pid, headers: () => bearer },
    {
      name: 'portkey',
      origin: `http://127.0.0.1:${portkey.port}`,
      pid: portkey.pid,
      headers: () => ({ ...bearer, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamOrigin}/v1` }),
    },
  ];
  const body = (stream: boolean) =>
    JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a concise assistant.' },
        { role: 'user', content: 'Say something about foxes and dogs in one sentence.' },
      ],
      max_tokens: 64,
      ...(stream ? { stream: true } : {}),
    });

  process.stdout.write(
    `Gateway benchmark: ${REPS} interleaved repetitions of ${DURATION_MS} ms per target, connections ${CONNECTIONS.join('/')}, ${canPin ? 'gateways on core 0, upstream and load generator on core 1' : 'unpinned'}\n`,
  );
  // Warm every target (JIT, connection pools, auth caches for all keys).
  for (const stream of [false, true]) {
    for (const target of targets) {
      await runLoad({
        origin: target.origin,
        connections: 10,
        warmupMs: 0,
        durationMs: 1_500,
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
          if (result.errors > 0)
            process.stdout.write(
              `  ${target.name} ${stream ? 'stream' : 'json'} c=${connections}: ${result.errors} errors (${result.firstError})\n`,
            );
          samples.push({
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
            errors: result.errors,
          });
        }
      }
    }
  }
  printReport(samples, CONNECTIONS);
  rmSync(scratch, { recursive: true, force: true });
}

function stopChildren(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(stopChildren);
