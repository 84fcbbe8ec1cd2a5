export interface Scheduler {
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  intervalMs: number;
  run(): Promise<unknown>;
  onError(error: unknown): void;
}

/**
 * Runs `run` at once and then every `intervalMs`, never two rounds at a time (a slow round
 * makes the next one wait, it does not pile up). `stop` cancels the timer and waits for the
 * round in progress, so nothing touches the database after shutdown.
 */
export function startScheduler(options: SchedulerOptions): Scheduler {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const tick = () => {
    if (stopped) return;
    current = options
      .run()
      .then(
        () => undefined,
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, options.intervalMs);
        timer.unref();
      });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
