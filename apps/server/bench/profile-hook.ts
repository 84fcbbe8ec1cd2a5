import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Profiling aid for the benchmark servers: with BENCH_PROFILE=<file>, a V8 CPU profile of the
 * steady state (BENCH_PROFILE_DELAY_MS after start, for BENCH_PROFILE_MS) is written there.
 */
export async function profileIfAsked(): Promise<void> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  setTimeout(
    async () => {
      await session.post('Profiler.start');
      setTimeout(
        async () => {
          const { profile } = await session.post('Profiler.stop');
          writeFileSync(file, JSON.stringify(profile));
        },
        Number(process.env.BENCH_PROFILE_MS ?? 5_000),
      );
    },
    Number(process.env.BENCH_PROFILE_DELAY_MS ?? 3_000),
  );
}
