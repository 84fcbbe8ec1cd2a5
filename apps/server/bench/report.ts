export type TargetName = 'direct' | 'conductor' | 'conductor-pg' | 'floor' | 'portkey';
/** Conductor as run in the benchmark: on its embedded PGlite, and on PostgreSQL (when one is reachable). */
const CONDUCTORS = ['conductor', 'conductor-pg'] as const;

export interface Sample {
  /** Which interleaved repetition (targets of one repetition ran minutes apart at most). */
  rep: number;
  target: TargetName;
  mode: 'json' | 'stream';
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  ttfb50: number;
  ttfb99: number;
  cpuMicros: number;
  /** CPU of the database server's backends serving the gateway, per request (PostgreSQL only). */
  dbCpuMicros: number;
  errors: number;
}

interface Row {
  rps: number;
  p50: number;
  p99: number;
  ttfb50: number;
  ttfb99: number;
  cpuMicros: number;
  dbCpuMicros: number;
  errors: number;
}

/** The median of the finite values (the mean of the middle two for an even count), NaN for none. */
export function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((left, right) => left - right);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

/**
 * A ratio between two targets taken within each repetition (they ran back to back), as the
 * lowest and highest over the repetitions: how far the host's drift moves the verdict.
 */
export function ratioRange(
  samples: readonly Sample[],
  of: (sample: Sample) => boolean,
  to: (sample: Sample) => boolean,
  value: (sample: Sample) => number,
): string {
  const ratios: number[] = [];
  for (const rep of new Set(samples.map((sample) => sample.rep))) {
    const top = samples.find((sample) => sample.rep === rep && of(sample));
    const bottom = samples.find((sample) => sample.rep === rep && to(sample));
    if (top && bottom) ratios.push(value(top) / value(bottom));
  }
  const finite = ratios.filter((ratio) => Number.isFinite(ratio));
  if (finite.length < 2) return '';
  return ` (repetitions ×${fixed(Math.min(...finite))}–×${fixed(Math.max(...finite))})`;
}
const pad = (text: string, width: number) => text.padStart(width);

function row(samples: Sample[]): Row {
  return {
    rps: median(samples.map((sample) => sample.rps)),
    p50: median(samples.map((sample) => sample.p50)),
    p99: median(samples.map((sample) => sample.p99)),
    ttfb50: median(samples.map((sample) => sample.ttfb50)),
    ttfb99: median(samples.map((sample) => sample.ttfb99)),
    cpuMicros: median(samples.map((sample) => sample.cpuMicros)),
    dbCpuMicros: median(samples.map((sample) => sample.dbCpuMicros)),
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
  };
}

/** Medians over the repetitions; added latency is relative to the direct path in the same configuration. */
export function printReport(samples: Sample[], connectionsList: number[]): void {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const present = new Set(samples.map((sample) => sample.target));
  const names = (['direct', 'conductor', 'conductor-pg', 'floor', 'portkey'] as const).filter((name) => present.has(name));
  const verdicts: string[] = [];
  for (const mode of ['json', 'stream'] as const) {
    out();
    out(`== ${mode === 'json' ? 'JSON' : 'Streaming'} (medians of repetitions; latencies in ms; added = minus direct) ==`);
    const header = ['target', 'conns', 'req/s', 'p50', 'p99', 'added p50', 'added p99'];
    if (mode === 'stream') header.push('ttfb p50', 'added ttfb');
    header.push('CPU µs/req', 'DB µs/req', 'errors');
    out(header.map((cell, index) => pad(cell, index === 0 ? 13 : 11)).join(''));
    for (const connections of connectionsList) {
      const rows = new Map(
        names.map((name) => [
          name,
          row(samples.filter((sample) => sample.mode === mode && sample.connections === connections && sample.target === name)),
        ]),
      );
      const direct = rows.get('direct');
      const added = (value: number, base: number | undefined) => (base === undefined ? Number.NaN : value - base);
      for (const name of names) {
        const current = rows.get(name) as Row;
        const cells = [name, String(connections), fixed(current.rps, 0), fixed(current.p50, 3), fixed(current.p99, 3)];
        cells.push(
          name === 'direct' ? '–' : fixed(added(current.p50, direct?.p50), 3),
          name === 'direct' ? '–' : fixed(added(current.p99, direct?.p99), 3),
        );
        if (mode === 'stream')
          cells.push(fixed(current.ttfb50, 3), name === 'direct' ? '–' : fixed(added(current.ttfb50, direct?.ttfb50), 3));
        cells.push(fixed(current.cpuMicros, 0), fixed(current.dbCpuMicros, 0), String(current.errors));
        out(cells.map((cell, index) => pad(cell, index === 0 ? 13 : 11)).join(''));
      }
      const floor = rows.get('floor');
      const portkey = rows.get('portkey');
      if (connections === 10 && floor) {
        // What a bare passthrough reaches on this machine in this run: the ceiling for the ratio targets.
        const latency =
          mode === 'json'
            ? `added p50 ${fixed(added(floor.p50, direct?.p50), 3)} ms`
            : `added time to first byte ${fixed(added(floor.ttfb50, direct?.ttfb50), 3)} ms`;
        verdicts.push(
          `floor ${mode} (reference, no target): throughput ×${fixed(floor.rps / (portkey?.rps ?? Number.NaN))} Portkey, ${latency}`,
        );
      }
      for (const conductor of CONDUCTORS) {
        const ours = rows.get(conductor);
        if (!ours) continue;
        out(
          `  ${conductor} @${connections}: throughput ×${fixed(ours.rps / (portkey?.rps ?? Number.NaN))} Portkey, ×${fixed(ours.rps / (floor?.rps ?? Number.NaN))} floor; CPU/req ×${fixed(ours.cpuMicros / (floor?.cpuMicros ?? Number.NaN))} floor, ×${fixed(ours.cpuMicros / (portkey?.cpuMicros ?? Number.NaN))} Portkey`,
        );
        if (connections !== 10) continue;
        const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');
        const throughputTarget = mode === 'json' ? 5 : 10;
        const throughput = ours.rps / (portkey?.rps ?? Number.NaN);
        const cpu = ours.cpuMicros / (floor?.cpuMicros ?? Number.NaN);
        const here = (sample: Sample) => sample.mode === mode && sample.connections === connections;
        const spread = (other: TargetName, value: (sample: Sample) => number) =>
          ratioRange(
            samples,
            (sample) => here(sample) && sample.target === conductor,
            (sample) => here(sample) && sample.target === other,
            value,
          );
        verdicts.push(
          `${conductor} ${mode}: throughput ×${fixed(throughput)} Portkey (target ≥ ${throughputTarget}) ${verdict(throughput >= throughputTarget)}${spread('portkey', (sample) => sample.rps)}`,
        );
        verdicts.push(
          `${conductor} ${mode}: CPU/req ×${fixed(cpu)} floor (target ≤ 2) ${verdict(cpu <= 2)}${spread('floor', (sample) => sample.cpuMicros)}`,
        );
        if (mode === 'json') {
          const addedP50 = added(ours.p50, direct?.p50);
          verdicts.push(`${conductor} json: added p50 ${fixed(addedP50, 3)} ms (target < 1 ms) ${verdict(addedP50 < 1)}`);
        } else {
          const addedTtfb = added(ours.ttfb50, direct?.ttfb50);
          verdicts.push(
            `${conductor} stream: added time to first byte ${fixed(addedTtfb, 3)} ms (target < 2 ms) ${verdict(addedTtfb < 2)}`,
          );
        }
      }
    }
  }
  out();
  out('== Targets (at 10 connections) ==');
  for (const verdict of verdicts) out(`  ${verdict}`);
}
