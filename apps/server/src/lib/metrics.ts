import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics. One registry per app instance (tests build several apps in a process).
 * Gateway code records upstream latencies, errors and breaker state through these helpers.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
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
    httpRequests: new Counter({
      name: 'conductor_http_requests_total',
      help: 'HTTP requests by method, route and status code',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'conductor_http_request_duration_seconds',
      help: 'HTTP request latency by method and route',
      labelNames: ['method', 'route'],
      buckets,
      registers: [registry],
    }),
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
