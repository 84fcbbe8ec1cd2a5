export interface Clock {
  /** Wall-clock time (ms since the epoch): timestamps, days, months. */
  now(): number;
  /**
   * A clock that never steps (ms, arbitrary origin), for durations that must not jump when the
   * wall clock is set (circuit breakers' cool-downs). Clocks without one measure durations with `now`.
   */
  monotonic?(): number;
}
export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now() };
