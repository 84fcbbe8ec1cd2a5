import type { FastifyInstance } from 'fastify';

export interface PeriodicJob {
  /** What the job is, for the log ("the billing sweep"). */
  what: string;
  /** Milliseconds between runs; 0 or less: the job is not scheduled (tests drive it themselves). */
  intervalMs: number;
  /** Also run once as soon as the app is ready (work left over from the last stop). */
  atStart?: boolean;
  run: () => Promise<unknown>;
  /** At close, before waiting for a run under way: asks that run to stop early. */
  stop?: () => Promise<void>;
}

/**
 * Background work every instance does on a timer: started when the app is ready, one run at a
 * time (a tick while a run is under way is skipped), a failed run logged and tried again at the
 * next tick. Closing the app stops the timer, calls `stop`, and waits for a run under way before
 * the app's own resources (the database) close under it.
 */
export function registerPeriodicJob(app: FastifyInstance, job: PeriodicJob): void {
  if (job.intervalMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closing = false;
  const tick = () => {
    if (closing || running) return;
    running = job
      .run()
      .then(
        () => undefined,
        (error: unknown) => app.log.error({ err: error }, `${job.what} failed; it runs again shortly`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, job.intervalMs);
    timer.unref();
    if (job.atStart) tick();
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(timer);
    await job.stop?.();
  });
  // onClose hooks run in the reverse order of their registration: this one runs before the
  // app's own (registered first), which closes the database.
  app.addHook('onClose', async () => {
    await running;
  });
}
