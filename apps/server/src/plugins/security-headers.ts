import { createHash } from 'node:crypto';
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

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * A strict Content-Security-Policy for one prerendered page: no inline script except the
 * exact ones React Router emitted into this file, allowed by their SHA-256 hashes.
 */
export function contentSecurityPolicyFor(html: string): string {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const body = match[1] ?? '';
    if (body.length > 0) hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [
    "default-src 'self'",
    `script-src 'self' ${[...hashes].join(' ')}`.trim(),
    // Inline style attributes are used by positioning primitives (menus, dialogs) and charts.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}
