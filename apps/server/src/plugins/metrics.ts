import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { Metrics } from '../lib/metrics.ts';

interface Series {
  requests: { inc(): void };
  duration: { observe(value: number): void };
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Request counts and latencies by route, and `GET /metrics` for loopback or a bearer token. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  // prom-client hashes the label object on every call; the series of a route, method and status
  // are bound once and kept (a few dozen routes; looked up by the route's own strings, whose
  // hashes V8 keeps), so a request costs three map reads and two plain updates.
  const series = new Map<string, Map<string, Map<number, Series>>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') {
      const { method } = request;
      const status = reply.statusCode;
      let byMethod = series.get(route);
      if (!byMethod) {
        // Routes are the registered patterns (or 'unmatched'), so the map is bounded; the cap is a guard.
        if (series.size >= 1_000) series.clear();
        byMethod = new Map();
        series.set(route, byMethod);
      }
      let byStatus = byMethod.get(method);
      if (!byStatus) {
        byStatus = new Map();
        byMethod.set(method, byStatus);
      }
      let bound = byStatus.get(status);
      if (!bound) {
        const labels = { method, route };
        bound = {
          requests: metrics.httpRequests.labels({ ...labels, status: String(status) }),
          duration: metrics.httpDuration.labels(labels),
        };
        byStatus.set(status, bound);
      }
      bound.requests.inc();
      bound.duration.observe(reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request, token)) throw new AppError('forbidden', 'Metrics are available on loopback or with the metrics token.');
    reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store');
    return metrics.registry.metrics();
  });
}

function allowed(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (token && header?.startsWith('Bearer ')) {
    const given = Buffer.from(header.slice(7));
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return LOOPBACK.has(request.socket.remoteAddress ?? '');
}
