import { settlesWithin } from './deadline.ts';
import { type Metric, Registry } from 'prom-client';

/**
 * Prometheus metrics. One registry per app instance (tests build several apps in a process).
 * The per-request ones (HTTP requests, upstream calls) are counted in plain maps and read out in
 * prom-client's shape when `/metrics` is scraped (see HttpMetrics); prom-client's own label
 * objects, validated and hashed on every call, would cost each request more than the rest of
 * its bookkeeping together.
 */
export interface Metrics {
  registry: Registry;
  /** Request counts by method, route and status, and latencies by method and route. */
  http: HttpMetrics;
  /** Upstream calls' latencies and errors by provider, and the circuit breakers' states. */
  upstream: UpstreamMetrics;
  /** E-mail sent by SMTP: attempts by outcome, and the queue waiting to be (re)delivered. */
  mail: MailMetrics;
}

export const BREAKER_STATE_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const;

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** `redisUp`, when the server uses Redis: whether it answers now (`conductor_redis_up`). */
export function createMetrics(options: { redisUp?: () => boolean } = {}): Metrics {
  const registry = new Registry();
  const { redisUp } = options;
  if (redisUp) {
    registry.registerMetric(
      scraped(
        'conductor_redis_up',
        'Whether Redis answers: 1 yes, 0 no (the limits and throttles then count in each instance)',
        'gauge',
        () => [{ labels: {}, value: redisUp() ? 1 : 0 }],
      ),
    );
  }
  return {
    registry,
    http: new HttpMetrics(registry, BUCKETS),
    upstream: new UpstreamMetrics(registry, BUCKETS),
    mail: new MailMetrics(registry),
  };
}

/** How long a scrape waits for the mail queue's count. */
const QUEUE_READ_MS = 1_000;

/** What became of an SMTP attempt, or of a mail dropped from the queue. */
export type MailOutcome = 'sent' | 'failed' | 'given_up';

/**
 * `conductor_mail_deliveries_total` (this instance's SMTP attempts: `sent`, `failed`, and
 * `given_up` for a mail dropped from the queue) and `conductor_mail_queued` (mail of every instance
 * waiting to be delivered or tried again, read from the database when scraped).
 */
export class MailMetrics {
  readonly #outcomes = new Map<MailOutcome, number>([
    ['sent', 0],
    ['failed', 0],
    ['given_up', 0],
  ]);
  #queued: (() => Promise<number>) | undefined;
  #lastQueued: number | undefined;

  constructor(registry: Registry) {
    registry.registerMetric(
      scraped(
        'conductor_mail_deliveries_total',
        'E-mail by SMTP from this instance: sent and failed attempts, and given_up (mail dropped from the queue: out of attempts or time, or unreadable)',
        'counter',
        () => [...this.#outcomes].map(([outcome, value]): Sample => ({ labels: { outcome }, value })),
      ),
    );
    registry.registerMetric(
      scraped('conductor_mail_queued', 'E-mail waiting to be delivered or tried again by SMTP (all instances)', 'gauge', async () => {
        const read = this.#queued;
        if (!read) return [];
        // A slow database must not hold the whole scrape: at most QUEUE_READ_MS, then the last value read.
        await settlesWithin(
          read().then(
            (value) => {
              this.#lastQueued = value;
            },
            () => undefined, // the database does not answer: the health check says so
          ),
          QUEUE_READ_MS,
        );
        return this.#lastQueued === undefined ? [] : [{ labels: {}, value: this.#lastQueued }];
      }),
    );
  }

  count(outcome: MailOutcome): void {
    this.#outcomes.set(outcome, (this.#outcomes.get(outcome) ?? 0) + 1);
  }

  /** Reports the queue's length when scraped (with SMTP only). */
  watchQueue(read: () => Promise<number>): void {
    this.#queued = read;
  }
}

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/** One histogram series: observations per bucket (not cumulative; the last is above every bound), count and sum. */
class LatencySeries {
  count = 0;
  sum = 0;
  readonly #bounds: readonly number[];
  readonly #buckets: number[];

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.#buckets = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(seconds: number): void {
    this.count += 1;
    this.sum += seconds;
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > (this.#bounds[bucket] as number)) bucket += 1;
    this.#buckets[bucket] = (this.#buckets[bucket] ?? 0) + 1;
  }

  /** The series as Prometheus histogram samples: cumulative buckets to +Inf, then sum and count. */
  samples(name: string, labels: Record<string, string>): Sample[] {
    const samples: Sample[] = [];
    let cumulative = 0;
    this.#bounds.forEach((bound, index) => {
      cumulative += this.#buckets[index] ?? 0;
      samples.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: `${name}_bucket` });
    });
    samples.push({ labels: { le: '+Inf', ...labels }, value: this.count, metricName: `${name}_bucket` });
    samples.push({ labels, value: this.sum, metricName: `${name}_sum` });
    samples.push({ labels, value: this.count, metricName: `${name}_count` });
    return samples;
  }
}

/**
 * `conductor_gateway_upstream_duration_seconds` (each attempt: until the answer, or until a
 * stream's first chunk, when failover is no longer possible), `conductor_gateway_upstream_errors_total`
 * and `conductor_gateway_breaker_state` (read from the breakers when scraped).
 */
export class UpstreamMetrics {
  readonly #bounds: readonly number[];
  /** `provider outcome` → series */
  readonly #durations = new Map<string, { provider: string; outcome: string; series: LatencySeries }>();
  /** `provider type` → count */
  readonly #errors = new Map<string, { provider: string; type: string; count: number }>();
  #breakers: () => Iterable<[string, keyof typeof BREAKER_STATE_VALUE]> = () => [];

  constructor(registry: Registry, bounds: readonly number[]) {
    this.#bounds = bounds;
    const durations = 'conductor_gateway_upstream_duration_seconds';
    registry.registerMetric(
      scraped(durations, 'Latency of upstream provider calls (until the answer, or until a stream’s first chunk)', 'histogram', () =>
        [...this.#durations.values()].flatMap(({ provider, outcome, series }) => series.samples(durations, { provider, outcome })),
      ),
    );
    registry.registerMetric(
      scraped('conductor_gateway_upstream_errors_total', 'Upstream provider errors by provider and error type', 'counter', () =>
        [...this.#errors.values()].map(({ provider, type, count }): Sample => ({ labels: { provider, type }, value: count })),
      ),
    );
    registry.registerMetric(
      scraped('conductor_gateway_breaker_state', 'Circuit breaker state per upstream: 0 closed, 1 half-open, 2 open', 'gauge', () =>
        [...this.#breakers()].map(([upstream, state]): Sample => ({ labels: { upstream }, value: BREAKER_STATE_VALUE[state] })),
      ),
    );
  }

  /** One upstream attempt: `outcome` is `ok` or the failure's label (status, `timeout`, `network-error`, …). */
  attempt(provider: string, outcome: string, seconds: number): void {
    const key = `${provider} ${outcome}`;
    let entry = this.#durations.get(key);
    if (!entry) {
      if (this.#durations.size >= 10_000) this.#durations.clear();
      entry = { provider, outcome, series: new LatencySeries(this.#bounds) };
      this.#durations.set(key, entry);
    }
    entry.series.observe(seconds);
  }

  /** One upstream error, by its OpenAI error type (`upstream_error`, `rate_limit_error`, `timeout_error`, …). */
  error(provider: string, type: string): void {
    const key = `${provider} ${type}`;
    let entry = this.#errors.get(key);
    if (!entry) {
      if (this.#errors.size >= 10_000) this.#errors.clear();
      entry = { provider, type, count: 0 };
      this.#errors.set(key, entry);
    }
    entry.count += 1;
  }

  /** Where the breakers' states are read from when scraped. */
  watchBreakers(read: () => Iterable<[string, keyof typeof BREAKER_STATE_VALUE]>): void {
    this.#breakers = read;
  }
}

interface RouteSeries {
  latency: LatencySeries;
  statuses: Map<number, number>;
}

/**
 * `conductor_http_requests_total` and `conductor_http_request_duration_seconds`, counted in maps
 * keyed by the route's and method's own strings (whose hashes V8 keeps).
 */
export class HttpMetrics {
  readonly #bounds: readonly number[];
  /** route → method → series */
  readonly #series = new Map<string, Map<string, RouteSeries>>();

  constructor(registry: Registry, bounds: readonly number[]) {
    this.#bounds = bounds;
    registry.registerMetric(
      scraped('conductor_http_requests_total', 'HTTP requests by method, route and status code', 'counter', () =>
        this.#entries().flatMap(({ method, route, entry }) =>
          [...entry.statuses].map(([status, value]): Sample => ({ labels: { method, route, status: String(status) }, value })),
        ),
      ),
    );
    const name = 'conductor_http_request_duration_seconds';
    registry.registerMetric(
      scraped(name, 'HTTP request latency by method and route', 'histogram', () =>
        this.#entries().flatMap(({ method, route, entry }) => entry.latency.samples(name, { method, route })),
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
      entry = { latency: new LatencySeries(this.#bounds), statuses: new Map() };
      byMethod.set(method, entry);
    }
    entry.latency.observe(seconds);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  }

  #entries(): { method: string; route: string; entry: RouteSeries }[] {
    const entries: { method: string; route: string; entry: RouteSeries }[] = [];
    for (const [route, byMethod] of this.#series) for (const [method, entry] of byMethod) entries.push({ method, route, entry });
    return entries;
  }
}

/** A metric prom-client's registry reads like its own (name, help, type, values at scrape time). */
function scraped(name: string, help: string, type: 'counter' | 'histogram' | 'gauge', values: () => Sample[] | Promise<Sample[]>): Metric {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, values: await values(), aggregator: 'sum' }),
    reset: () => undefined,
  } as unknown as Metric;
}
