import type { FastifyInstance } from 'fastify';

export interface PeriodicJob {
  /** What the job is, for the log ("the billing sweep"). */
  what: string;
  /** Milliseconds from the end of one run to the start of the next; 0 or less: the job is not scheduled (tests drive it themselves). */
  intervalMs: number;
  /** Also run once as soon as the app is ready (work left over from the last stop). */
  atStart?: boolean;
  run: () => Promise<unknown>;
  /** At close, before waiting for a run under way: asks that run to stop early. */
  stop?: () => Promise<void>;
}

/**
 * Background work every instance does on a timer: started when the app is ready, one run at a
 * time (a slow run makes the next one wait, runs never pile up), a failed run logged and tried
 * again at the next. Closing the app stops the timer, calls `stop`, and waits for a run under way
 * before the app's own resources (the database) close under it.
 */
export function registerPeriodicJob(app: FastifyInstance, job: PeriodicJob): void {
  if (job.intervalMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closing = false;
  const schedule = () => {
    if (closing) return;
    timer = setTimeout(tick, job.intervalMs);
    timer.unref();
  };
  const tick = () => {
    if (closing) return;
    running = job
      .run()
      .then(
        () => undefined,
        (error: unknown) => app.log.error({ err: error }, `${job.what} failed; it runs again shortly`),
      )
      .finally(() => {
        running = undefined;
        schedule();
      });
  };
  app.addHook('onReady', async () => {
    if (job.atStart) tick();
    else schedule();
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearTimeout(timer);
    await job.stop?.();
  });
  // onClose hooks run in the reverse order of their registration: this one runs before the
  // app's own (registered first), which closes the database.
  app.addHook('onClose', async () => {
    await running;
  });
}
