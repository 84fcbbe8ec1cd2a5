import type { FastifyInstance } from 'fastify';

/**
 * Baseline headers on every response: the request id and the security headers. One hook,
 * registered before any other, so that a request refused by a later hook (a cross-origin
 * portal write, a gateway call without a key) still gets them all.
 */
export function registerBaselineHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
  // Set when the request arrives (they survive error replies), not in an onSend hook, which
  // would run a hook chain on every reply; hijacked replies (SSE, the issuer's pages) set their own.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
