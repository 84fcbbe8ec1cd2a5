import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { Metrics } from '../lib/metrics.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Request counts and latencies by route, and `GET /metrics` for loopback or a bearer token. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') metrics.http.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
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
  // Loopback means a local scraper, not a reverse proxy on the same host relaying anyone: a
  // forwarded request (a trusted proxy's client address, or any forwarding header) is not local.
  const { headers } = request;
  const forwarded = headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined || headers['x-real-ip'] !== undefined;
  return !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? '') && LOOPBACK.has(request.ip);
}
