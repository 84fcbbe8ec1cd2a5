import type { FastifyRequest } from 'fastify';
import type { Env } from '../../config/env.ts';
import { isLoopbackHost } from '../../lib/loopback.ts';

/**
 * The origin our links point at (reset e-mails, SSO redirect URIs). PUBLIC_URL when set;
 * otherwise the request's own host, but only when it is this server's configured or a
 * loopback host, so a forged Host header cannot point a reset link at someone else's site.
 */
export function publicOrigin(env: Env, request: FastifyRequest): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  const fallback = configuredOrigin(env);
  let candidate: URL;
  try {
    candidate = new URL(`${request.protocol}://${request.host}`);
  } catch {
    return fallback;
  }
  const trusted = isLoopbackHost(candidate.hostname) || candidate.hostname === env.HOST;
  return trusted ? candidate.origin : fallback;
}

/**
 * The origin for links in mail sent without a request (the billing sweep's): PUBLIC_URL, else this
 * server's address. A production server listening beyond loopback cannot start without an https
 * PUBLIC_URL (config/env.ts), so the localhost fallback serves development, tests and loopback only.
 */
export function configuredOrigin(env: Env): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`;
}
