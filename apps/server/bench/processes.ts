import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The benchmark's child processes: started pinned to a core, measured from /proc, stopped together. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const cores = os.availableParallelism();
export const canPin = cores >= 2 && safeExec('taskset', ['--version']) !== undefined;
const CLOCK_TICKS = Number(safeExec('getconf', ['CLK_TCK']) ?? 100) || 100;
const children: ChildProcess[] = [];
const scratchDirectories: string[] = [];

function safeExec(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Pins this process (the load generator) to a core. */
export function pinSelf(core: number): void {
  if (canPin) execFileSync('taskset', ['-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts a Node program pinned to a core; resolves with its pid and the port it prints (or `port`). */
export async function start(
  name: string,
  core: number,
  args: string[],
  options: { port?: number; readyUrl?: string; env?: Record<string, string> } = {},
): Promise<{ pid: number; port: number }> {
  const command = canPin ? 'taskset' : process.execPath;
  // BENCH_NODE_FLAGS: Node/V8 flags for Conductor's servers only (e.g. `--trace-deopt`), for diagnosis.
  const flags = name.startsWith('conductor') ? (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean) : [];
  const commandArgs = canPin ? ['-c', String(core), process.execPath, ...flags, ...args] : [...flags, ...args];
  // Portkey prints start-up noise on stderr; the other programs' stderr is shown (crashes must be seen).
  const child = spawn(command, commandArgs, {
    cwd: root,
    stdio: ['ignore', 'pipe', name === 'portkey' ? 'ignore' : 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
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
    const onData = (data: Buffer) => {
      buffer += data.toString();
      // The first line that is the program's JSON port report (V8 tracing flags may print before it).
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      const report = lines.find((line) => line.startsWith('{"port"'));
      if (!report) return;
      child.stdout?.off('data', onData);
      resolve(report);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  child.stdout?.resume();
  return { pid: child.pid, port: JSON.parse(line).port };
}

/** User plus system CPU seconds of a process, from /proc. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** A temporary directory for a benchmark script's own files (the servers' API keys), removed by stopChildren. */
export function scratchDirectory(prefix: string): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
  scratchDirectories.push(directory);
  return directory;
}

export function stopChildren(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  for (const directory of scratchDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
}
