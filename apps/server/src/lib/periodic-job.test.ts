import Fastify from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { registerPeriodicJob } from './periodic-job.ts';

interface Logged {
  msg: string;
  err?: { message: string };
}

/** A bare Fastify app whose error log is captured. */
function appWithLog() {
  const logged: Logged[] = [];
  const stream = { write: (line: string) => logged.push(JSON.parse(line) as Logged) };
  const app = Fastify({ logger: { level: 'error', stream } });
  return { app, logged };
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('timed out waiting');
    await sleep(5);
  }
}

describe('registerPeriodicJob', () => {
  it('runs every interval once the app is ready, and not before', async () => {
    const { app } = appWithLog();
    let runs = 0;
    registerPeriodicJob(app, { what: 'the job', intervalMs: 20, run: async () => void runs++ });
    await sleep(60);
    expect(runs).toBe(0);
    await app.ready();
    await until(() => runs >= 3);
    await app.close();
    const atClose = runs;
    await sleep(60);
    expect(runs).toBe(atClose);
  });

  it('runs once at start when asked to', async () => {
    const { app } = appWithLog();
    let runs = 0;
    registerPeriodicJob(app, { what: 'the job', intervalMs: 60_000, atStart: true, run: async () => void runs++ });
    await app.ready();
    await until(() => runs === 1);
    await app.close();
  });

  it('is not scheduled with an interval of 0', async () => {
    const { app } = appWithLog();
    let runs = 0;
    registerPeriodicJob(app, { what: 'the job', intervalMs: 0, atStart: true, run: async () => void runs++ });
    await app.ready();
    await sleep(50);
    await app.close();
    expect(runs).toBe(0);
  });

  it('never overlaps two runs: a slow run makes the next one wait', async () => {
    const { app } = appWithLog();
    let active = 0;
    let most = 0;
    let runs = 0;
    registerPeriodicJob(app, {
      what: 'the job',
      intervalMs: 5,
      run: async () => {
        active++;
        most = Math.max(most, active);
        await sleep(40);
        active--;
        runs++;
      },
    });
    await app.ready();
    await until(() => runs >= 3);
    await app.close();
    expect(most).toBe(1);
  });

  it('logs a failed run and runs again after the interval', async () => {
    const { app, logged } = appWithLog();
    let runs = 0;
    registerPeriodicJob(app, {
      what: 'the flaky job',
      intervalMs: 10,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error('database unreachable');
      },
    });
    await app.ready();
    await until(() => runs >= 2);
    await app.close();
    const failure = logged.find((line) => line.msg === 'the flaky job failed; it runs again shortly');
    expect(failure?.err?.message).toBe('database unreachable');
  });

  it('at close: stops the timer, asks the run under way to stop, then waits for it before onClose resources go', async () => {
    const { app } = appWithLog();
    const order: string[] = [];
    let release: () => void = () => undefined;
    // Registered first, as the app's context is: its onClose runs last.
    app.addHook('onClose', async () => void order.push('database closed'));
    registerPeriodicJob(app, {
      what: 'the job',
      intervalMs: 60_000,
      atStart: true,
      run: async () => {
        order.push('run started');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        order.push('run ended');
      },
      stop: async () => {
        order.push('stop asked');
        setTimeout(() => release(), 30);
      },
    });
    await app.ready();
    await until(() => order.includes('run started'));
    await app.close();
    expect(order).toEqual(['run started', 'stop asked', 'run ended', 'database closed']);
  });
});
