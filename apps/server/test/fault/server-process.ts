/**
 * The real server (`apps/server/src/server.ts`) in a child process, for the tests that must
 * kill it, restart it or run two of it: fault, scale-out, log capture and load.
 *
 *   const server = await startServerProcess({ dataDir, env: { DATABASE_URL } });
 *   await fetch(`${server.origin}/v1/health`);
 *   await server.kill('SIGKILL');            // or server.stop() for a graceful SIGTERM
 *
 * The child gets a clean environment (only what is passed, plus PATH and HOME), so nothing
 * from the developer's shell (provider keys, DATABASE_URL) leaks into a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_ENTRY = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
const MEMORY_PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));

export interface ServerProcessOptions {
  /** Reused across restarts (PGlite lives in `<dataDir>/pglite`); a fresh temp dir by default. */
  dataDir?: string;
  /** A fixed port (e.g. to restart on the same one); a free one by default. */
  port?: number;
  env?: Record<string, string | undefined>;
  /** How long to wait for the health check to answer; PGlite's first start runs initdb and migrations. */
  startTimeoutMs?: number;
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapUsedBeforeGc: number;
  external: number;
  arrayBuffers: number;
}

export interface ServerProcess {
  origin: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Every line the process wrote to stdout and stderr, in order. */
  output: string[];
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Graceful stop (SIGTERM); SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Memory after a full GC, measured inside the process (see memory-probe.ts). */
  memory(): Promise<MemorySample>;
  /** Resident set size from /proc, without disturbing the process. */
  rssBytes(): number;
}

/** A port that was free a moment ago (the OS picks it; we close it and hand it to the child). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function tempDataDir(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `conductor-${label}-`));
}

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? tempDataDir('proc');
  const port = options.port ?? (await freePort());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO_ACCOUNT: 'off',
    LOG_LEVEL: 'info',
  };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;

  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', '--import', MEMORY_PROBE, SERVER_ENTRY], {
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      // A data directory made here is this process's alone: it goes with it (a caller that
      // restarts a server on the same files passes its own and removes it itself).
      if (options.dataDir === undefined) {
        try {
          rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
        } catch {
          // Left behind in the temporary directory: not worth failing the test over.
        }
      }
      resolve({ code, signal });
    }),
  );
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
      }
    });
    stream?.on('end', () => {
      if (partial) output.push(partial);
    });
  };
  collect(child.stdout);
  collect(child.stderr);

  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const origin = `http://127.0.0.1:${port}`;
  let timer: NodeJS.Timeout | undefined;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  // Ready when it answers its health check (whatever the log level).
  const ready = (async () => {
    while (!gone) {
      const response = await fetch(`${origin}/v1/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
      if (response) {
        await response.arrayBuffer().catch(() => undefined);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const outcome = await Promise.race([
    ready.then(() => (gone ? ('exited' as const) : ('ready' as const))),
    exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (outcome !== 'ready') {
    if (outcome === 'timeout') child.kill('SIGKILL');
    throw new Error(`the server did not start (${outcome}):\n${output.slice(-30).join('\n')}`);
  }

  let probeId = 0;
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    origin,
    port,
    pid,
    dataDir,
    output,
    exited,
    kill,
    async stop(stopTimeoutMs = 15_000) {
      const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
      try {
        return await kill('SIGTERM');
      } finally {
        clearTimeout(timer);
      }
    },
    memory() {
      const id = ++probeId;
      return new Promise<MemorySample>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          reject(new Error('the memory probe did not answer'));
        }, 10_000);
        const onMessage = (message: { type?: string; id?: number } & MemorySample) => {
          if (message?.type !== 'memory' || message.id !== id) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(message);
        };
        child.on('message', onMessage);
        child.send({ type: 'memory', id });
      });
    },
    rssBytes() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kilobytes = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
      return kilobytes * 1024;
    },
  };
}

/** The JSON log lines of a server (pino writes one object per line). */
export function jsonLines(output: readonly string[]): Record<string, unknown>[] {
  const parsed: Record<string, unknown>[] = [];
  for (const line of output) {
    if (!line.startsWith('{')) continue;
    try {
      parsed.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut by SIGKILL: not JSON, ignored here (the raw text is still in `output`).
    }
  }
  return parsed;
}
