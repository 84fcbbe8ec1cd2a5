import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits for `work` at most `ms` milliseconds: true when it fulfilled in time, false when the time
 * ran out first (`work` goes on; the caller decides what its late outcome means). A rejection in
 * time is thrown. The timer never holds the process open and is cleared as soon as `work` settles.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const timer = new AbortController();
  const timeout = sleep(ms, false, { signal: timer.signal, ref: false });
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    timer.abort();
    timeout.catch(() => undefined); // the abort rejects the sleep; nobody waits for it any more
  }
}
