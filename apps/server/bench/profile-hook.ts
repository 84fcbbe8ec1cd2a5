import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Profiling aid for the benchmark servers: with BENCH_PROFILE=<file>, a V8 CPU profile of the
 * steady state (BENCH_PROFILE_DELAY_MS after start, for BENCH_PROFILE_MS) is written there; with
 * BENCH_HEAP_PROFILE=<file>, a sampling profile of what the same window allocates.
 */
export async function profileIfAsked(): Promise<void> {
  const cpuFile = process.env.BENCH_PROFILE;
  const heapFile = process.env.BENCH_HEAP_PROFILE;
  if (!cpuFile && !heapFile) return;
  const session = new Session();
  session.connect();
  if (cpuFile) await session.post('Profiler.enable');
  setTimeout(
    async () => {
      if (cpuFile) await session.post('Profiler.start');
      // Every allocation of 1 KB on average is sampled; objects collected meanwhile are kept in the report.
      if (heapFile)
        await session.post('HeapProfiler.startSampling', {
          samplingInterval: 1024,
          includeObjectsCollectedByMajorGC: true,
          // BENCH_HEAP_SURVIVORS=1: only what outlived a young-generation collection (what gets promoted).
          includeObjectsCollectedByMinorGC: process.env.BENCH_HEAP_SURVIVORS !== '1',
        });
      setTimeout(
        async () => {
          if (cpuFile) writeFileSync(cpuFile, JSON.stringify((await session.post('Profiler.stop')).profile));
          if (heapFile) writeFileSync(heapFile, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile));
        },
        Number(process.env.BENCH_PROFILE_MS ?? 5_000),
      );
    },
    Number(process.env.BENCH_PROFILE_DELAY_MS ?? 3_000),
  );
}
