import { describe, expect, it } from 'vitest';
import { ratioRange, type Sample, type TargetName } from '../bench/report.ts';

const sample = (rep: number, target: TargetName, rps: number): Sample => ({
  rep,
  target,
  mode: 'json',
  connections: 10,
  rps,
  p50: 1,
  p99: 2,
  ttfb50: Number.NaN,
  ttfb99: Number.NaN,
  cpuMicros: 100,
  dbCpuMicros: Number.NaN,
  errors: 0,
});

describe('benchmark report: ratio ranges', () => {
  const isConductor = (entry: Sample) => entry.target === 'conductor';
  const isPortkey = (entry: Sample) => entry.target === 'portkey';
  const rps = (entry: Sample) => entry.rps;

  it('pairs targets within each repetition, not across them', () => {
    const samples = [
      sample(0, 'conductor', 4_000),
      sample(0, 'portkey', 1_000),
      sample(1, 'conductor', 3_000),
      sample(1, 'portkey', 500),
      sample(2, 'portkey', 800),
      sample(2, 'conductor', 4_000),
    ];
    // Per repetition: 4, 6 and 5; the medians' ratio would be 4,000 / 800 = 5.
    expect(ratioRange(samples, isConductor, isPortkey, rps)).toBe(' (repetitions ×4.00–×6.00)');
  });

  it('says nothing with fewer than two complete repetitions', () => {
    expect(ratioRange([sample(0, 'conductor', 4_000), sample(0, 'portkey', 1_000)], isConductor, isPortkey, rps)).toBe('');
    expect(ratioRange([sample(0, 'conductor', 4_000), sample(1, 'portkey', 1_000)], isConductor, isPortkey, rps)).toBe('');
  });
});
