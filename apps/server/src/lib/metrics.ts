import { Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';

/**
 * Prometheus metrics. One registry per app instance (tests build several apps in a process).
 * Gateway code records upstream latencies, errors and breaker state through these helpers.
 */
export interface Metrics {
  registry: Registry;
  /** Request counts by method, route and status, and latencies by method and route. */
  http: HttpMetrics;
  upstreamDuration: Histogram<'provider' | 'outcome'>;
  upstreamErrors: Counter<'provider' | 'type'>;
  breakerState: Gauge<'upstream'>;
}

export const BREAKER_STATE_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

export function createMetrics(): Metrics {
  const registry = new Registry();
  const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  return {
    registry,
    http: new HttpMetrics(registry, buckets),
    upstreamDuration: new Histogram({
      name: 'conductor_gateway_upstream_duration_seconds',
      help: 'Latency of upstream provider calls (to the end of the response or stream)',
      labelNames: ['provider', 'outcome'],
      buckets,
      registers: [registry],
    }),
    upstreamErrors: new Counter({
      name: 'conductor_gateway_upstream_errors_total',
      help: 'Upstream provider errors by provider and error type',
      labelNames: ['provider', 'type'],
      registers: [registry],
    }),
    breakerState: new Gauge({
      name: 'conductor_gateway_breaker_state',
      help: 'Circuit breaker state per upstream: 0 closed, 1 half-open, 2 open',
      labelNames: ['upstream'],
      registers: [registry],
    }),
  };
}

interface RouteSeries {
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last is above every bound. */
  buckets: number[];
  statuses: Map<number, number>;
}

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * `conductor_http_requests_total` and `conductor_http_request_duration_seconds`, counted in plain
 * maps keyed by the route's and method's own strings and read out in prom-client's shape when
 * scraped: prom-client's label objects (validated and hashed on every call) cost a request more
 * than the rest of its bookkeeping together.
 */
export class HttpMetrics {
  readonly #bounds: readonly number[];
  /** route → method → series */
  readonly #series = new Map<string, Map<string, RouteSeries>>();

  constructor(registry: Registry, bounds: readonly number[]) {
    this.#bounds = bounds;
    const series = () => this.#entries();
    registry.registerMetric(
      scraped('conductor_http_requests_total', 'HTTP requests by method, route and status code', 'counter', () =>
        series().flatMap(({ method, route, entry }) =>
          [...entry.statuses].map(([status, value]): Sample => ({ labels: { method, route, status: String(status) }, value })),
        ),
      ),
    );
    const name = 'conductor_http_request_duration_seconds';
    registry.registerMetric(
      scraped(name, 'HTTP request latency by method and route', 'histogram', () =>
        series().flatMap(({ method, route, entry }) => {
          const samples: Sample[] = [];
          let cumulative = 0;
          this.#bounds.forEach((bound, index) => {
            cumulative += entry.buckets[index] ?? 0;
            samples.push({ labels: { le: bound, method, route }, value: cumulative, metricName: `${name}_bucket` });
          });
          samples.push({ labels: { le: '+Inf', method, route }, value: entry.count, metricName: `${name}_bucket` });
          samples.push({ labels: { method, route }, value: entry.sum, metricName: `${name}_sum` });
          samples.push({ labels: { method, route }, value: entry.count, metricName: `${name}_count` });
          return samples;
        }),
      ),
    );
  }

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#series.get(route);
    if (!byMethod) {
      // Routes are the registered patterns (or 'unmatched'): bounded; the cap is a guard.
      if (this.#series.size >= 1_000) this.#series.clear();
      byMethod = new Map();
      this.#series.set(route, byMethod);
    }
    let entry = byMethod.get(method);
    if (!entry) {
      entry = { count: 0, sum: 0, buckets: new Array<number>(this.#bounds.length + 1).fill(0), statuses: new Map() };
      byMethod.set(method, entry);
    }
    entry.count += 1;
    entry.sum += seconds;
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > (this.#bounds[bucket] as number)) bucket += 1;
    entry.buckets[bucket] = (entry.buckets[bucket] ?? 0) + 1;
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  }

  #entries(): { method: string; route: string; entry: RouteSeries }[] {
    const entries: { method: string; route: string; entry: RouteSeries }[] = [];
    for (const [route, byMethod] of this.#series) for (const [method, entry] of byMethod) entries.push({ method, route, entry });
    return entries;
  }

  reset(): void {
    this.#series.clear();
  }
}

/** A metric prom-client's registry reads like its own (name, help, type, values at scrape time). */
function scraped(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): Metric {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }),
    reset: () => undefined,
  } as unknown as Metric;
}
