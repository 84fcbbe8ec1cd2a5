import { describe, expect, it } from 'vitest';
import { startScheduler } from './status.scheduler.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `condition` holds (the machine may be busy; timings are not the point). */
async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await sleep(5);
  }
}

describe('health-check scheduler', () => {
  it('runs at once, then on every interval, never two rounds at a time', async () => {
    let running = 0;
    let maxConcurrent = 0;
    let rounds = 0;
    const scheduler = startScheduler({
      intervalMs: 10,
      run: async () => {
        running += 1;
        maxConcurrent = Math.max(maxConcurrent, running);
        await sleep(25);
        rounds += 1;
        running -= 1;
      },
      onError: () => undefined,
    });
    expect(running).toBe(1);
    await until(() => rounds >= 3);
    await scheduler.stop();
    expect(rounds).toBeGreaterThanOrEqual(3);
    expect(maxConcurrent).toBe(1);
    const after = rounds;
    await sleep(60);
    expect(rounds).toBe(after);
  });

  it('waits for the round in progress when stopped and keeps going after a failing round', async () => {
    const events: string[] = [];
    let calls = 0;
    const errors: unknown[] = [];
    const scheduler = startScheduler({
      intervalMs: 5,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        events.push('started');
        await sleep(30);
        events.push('finished');
      },
      onError: (error) => errors.push(error),
    });
    await until(() => events.includes('started'));
    await scheduler.stop();
    expect(errors).toHaveLength(1);
    expect(events.at(-1)).toBe('finished');
  });
});
