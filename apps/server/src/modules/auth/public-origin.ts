import type { FastifyRequest } from 'fastify';
import type { Env } from '../../config/env.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin our links point at (reset e-mails, SSO redirect URIs). PUBLIC_URL when set;
 * otherwise the request's own host, but only when it is this server's configured or a
 * loopback host, so a forged Host header cannot point a reset link at someone else's site.
 */
export function publicOrigin(env: Env, request: FastifyRequest): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  const fallbackHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const fallback = `http://${fallbackHost.includes(':') ? `[${fallbackHost}]` : fallbackHost}:${env.PORT}`;
  let candidate: URL;
  try {
    candidate = new URL(`${request.protocol}://${request.host}`);
  } catch {
    return fallback;
  }
  const trusted = LOOPBACK.has(candidate.hostname) || candidate.hostname === env.HOST;
  return trusted ? candidate.origin : fallback;
}
