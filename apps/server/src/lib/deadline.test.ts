import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { settlesWithin } from './deadline.ts';

describe('settlesWithin', () => {
  it('is true for work that fulfils in time, without waiting out the deadline', async () => {
    const started = performance.now();
    await expect(settlesWithin(sleep(5), 10_000)).resolves.toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('is false when the time runs out first, and the work goes on', async () => {
    let done = false;
    const work = sleep(150).then(() => {
      done = true;
    });
    await expect(settlesWithin(work, 20)).resolves.toBe(false);
    expect(done).toBe(false);
    await work;
    expect(done).toBe(true);
  });

  it('throws the rejection of work that fails in time', async () => {
    await expect(settlesWithin(Promise.reject(new Error('refused')), 1_000)).rejects.toThrow('refused');
  });

  it('leaves no rejection unhandled when work fails after the deadline', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const work = sleep(40).then(() => {
        throw new Error('late failure');
      });
      work.catch(() => undefined); // the caller's own handling of the late outcome
      await expect(settlesWithin(work, 5)).resolves.toBe(false);
      await sleep(80);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('does not keep the process alive while it waits', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = `import('${new URL('./deadline.ts', import.meta.url).href}').then(({ settlesWithin }) => { settlesWithin(new Promise(() => {}), 60_000); })`;
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
