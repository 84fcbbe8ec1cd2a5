import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { isLoopbackHost } from '../lib/loopback.ts';
import type { Metrics } from '../lib/metrics.ts';

/**
 * Request counts and latencies by route, and `GET /metrics`: with the bearer token, or outside
 * production from loopback. In production only the token opens it (a reverse proxy on the same
 * host may relay anyone from loopback without a forwarding header), and without METRICS_TOKEN
 * it answers 404 like any unknown path.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const loopbackAllowed = app.context.env.NODE_ENV !== 'production';
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') metrics.http.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token && !loopbackAllowed) throw app.unrouted(request, reply);
    if (!hasToken(request, token) && !(loopbackAllowed && local(request))) {
      throw new AppError(
        'forbidden',
        loopbackAllowed ? 'Metrics are available on loopback or with the metrics token.' : 'Metrics are available with the metrics token.',
      );
    }
    reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store');
    return metrics.registry.metrics();
  });
}

function hasToken(request: FastifyRequest, token: string | undefined): boolean {
  const header = request.headers.authorization;
  if (!token || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Loopback means a local scraper, not a reverse proxy on the same host relaying anyone: a
 * forwarded request (a trusted proxy's client address, or any forwarding header) is not local.
 */
function local(request: FastifyRequest): boolean {
  const { headers } = request;
  const forwarded = headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined || headers['x-real-ip'] !== undefined;
  return !forwarded && isLoopbackHost(request.socket.remoteAddress ?? '') && isLoopbackHost(request.ip);
}
