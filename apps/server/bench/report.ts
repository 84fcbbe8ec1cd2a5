export type TargetName = 'direct' | 'conductor' | 'floor' | 'portkey';

export interface Sample {
  target: TargetName;
  mode: 'json' | 'stream';
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  ttfb50: number;
  ttfb99: number;
  cpuMicros: number;
  errors: number;
}

interface Row {
  rps: number;
  p50: number;
  p99: number;
  ttfb50: number;
  ttfb99: number;
  cpuMicros: number;
  errors: number;
}

function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((left, right) => left - right);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const pad = (text: string, width: number) => text.padStart(width);

function row(samples: Sample[]): Row {
  return {
    rps: median(samples.map((sample) => sample.rps)),
    p50: median(samples.map((sample) => sample.p50)),
    p99: median(samples.map((sample) => sample.p99)),
    ttfb50: median(samples.map((sample) => sample.ttfb50)),
    ttfb99: median(samples.map((sample) => sample.ttfb99)),
    cpuMicros: median(samples.map((sample) => sample.cpuMicros)),
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
  };
}

/** Medians over the repetitions; added latency is relative to the direct path in the same configuration. */
export function printReport(samples: Sample[], connectionsList: number[]): void {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const names: TargetName[] = ['direct', 'conductor', 'floor', 'portkey'];
  const verdicts: string[] = [];
  for (const mode of ['json', 'stream'] as const) {
    out();
    out(`== ${mode === 'json' ? 'JSON' : 'Streaming'} (medians of repetitions; latencies in ms; added = minus direct) ==`);
    const header = ['target', 'conns', 'req/s', 'p50', 'p99', 'added p50', 'added p99'];
    if (mode === 'stream') header.push('ttfb p50', 'added ttfb');
    header.push('CPU µs/req', 'errors');
    out(header.map((cell, index) => pad(cell, index === 0 ? 10 : 11)).join(''));
    for (const connections of connectionsList) {
      const rows = new Map(
        names.map((name) => [
          name,
          row(samples.filter((sample) => sample.mode === mode && sample.connections === connections && sample.target === name)),
        ]),
      );
      const direct = rows.get('direct') as Row;
      for (const name of names) {
        const current = rows.get(name) as Row;
        const cells = [name, String(connections), fixed(current.rps, 0), fixed(current.p50, 3), fixed(current.p99, 3)];
        cells.push(
          name === 'direct' ? '–' : fixed(current.p50 - direct.p50, 3),
          name === 'direct' ? '–' : fixed(current.p99 - direct.p99, 3),
        );
        if (mode === 'stream') cells.push(fixed(current.ttfb50, 3), name === 'direct' ? '–' : fixed(current.ttfb50 - direct.ttfb50, 3));
        cells.push(fixed(current.cpuMicros, 0), String(current.errors));
        out(cells.map((cell, index) => pad(cell, index === 0 ? 10 : 11)).join(''));
      }
      const ours = rows.get('conductor') as Row;
      const floor = rows.get('floor') as Row;
      const portkey = rows.get('portkey') as Row;
      out(
        `  ratios @${connections}: throughput ×${fixed(ours.rps / portkey.rps)} Portkey, ×${fixed(ours.rps / floor.rps)} floor; CPU/req ×${fixed(ours.cpuMicros / floor.cpuMicros)} floor, ×${fixed(ours.cpuMicros / portkey.cpuMicros)} Portkey`,
      );
      if (connections === 10) {
        const throughputTarget = mode === 'json' ? 5 : 10;
        verdicts.push(
          `${mode}: throughput ×${fixed(ours.rps / portkey.rps)} Portkey (target ≥ ${throughputTarget}) ${ours.rps / portkey.rps >= throughputTarget ? 'MET' : 'MISSED'}`,
        );
        verdicts.push(
          `${mode}: CPU/req ×${fixed(ours.cpuMicros / floor.cpuMicros)} floor (target ≤ 2) ${ours.cpuMicros / floor.cpuMicros <= 2 ? 'MET' : 'MISSED'}`,
        );
        if (mode === 'json') {
          const added = ours.p50 - direct.p50;
          verdicts.push(`json: added p50 ${fixed(added, 3)} ms at 10 connections (target < 1 ms) ${added < 1 ? 'MET' : 'MISSED'}`);
        } else {
          const added = ours.ttfb50 - direct.ttfb50;
          verdicts.push(
            `stream: added time to first byte ${fixed(added, 3)} ms at 10 connections (target < 2 ms) ${added < 2 ? 'MET' : 'MISSED'}`,
          );
        }
      }
    }
  }
  out();
  out('== Targets (at 10 connections) ==');
  for (const verdict of verdicts) out(`  ${verdict}`);
}
