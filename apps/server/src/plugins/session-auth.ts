import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { routedPath } from '../lib/request-path.ts';
import { type NewSession, resolveSession, SESSION_COOKIE, type SessionRow } from '../modules/auth/session.service.ts';
import type { UserRow } from '../modules/users/users.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved lazily by `loadSession`; null when signed out. */
    auth: { session: SessionRow; user: UserRow } | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless a valid session cookie is present. */
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    setSessionCookie(reply: FastifyReply, session: NewSession): void;
    clearSessionCookie(reply: FastifyReply): void;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Session cookies (HttpOnly, SameSite=Lax, Secure over https) and an Origin check on
 * state-changing portal calls.
 */
export async function registerSessionAuth(app: FastifyInstance): Promise<void> {
  // Cookies are parsed for the portal API only (below): the gateway and the pages never read them.
  await app.register(fastifyCookie, { hook: false });
  const secure = app.context.env.PUBLIC_URL?.startsWith('https:') ?? app.context.env.NODE_ENV === 'production';
  const publicOrigin = app.context.env.PUBLIC_URL ? new URL(app.context.env.PUBLIC_URL).origin : undefined;
  app.decorateRequest('auth', null);

  // Callback style: the gateway and the pages pass through without a promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    // The routed path: `/%61pi/v1/…` reaches the portal API too and must get its checks.
    if (!request.url.startsWith('/api/') && !routedPath(request.url)?.startsWith('/api/')) return done();
    const header = request.headers.cookie;
    request.cookies = header ? app.parseCookie(header) : {};
    try {
      if (STATE_CHANGING.has(request.method)) assertSameOrigin(request, publicOrigin);
    } catch (error) {
      return done(error as Error);
    }
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return done();
    resolveSession(app.context.database.db, token, app.context.clock.now()).then((auth) => {
      request.auth = auth;
      done();
    }, done);
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.auth) throw new AppError('unauthorized', 'Sign in to continue.');
  });

  app.decorate('setSessionCookie', (reply: FastifyReply, session: NewSession) => {
    reply.setCookie(SESSION_COOKIE, session.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      // Without "remember me" the cookie ends with the browser session.
      ...(session.remember ? { expires: session.expiresAt } : {}),
    });
  });

  app.decorate('clearSessionCookie', (reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  });
}

/**
 * Cross-site state-changing calls are refused: the Origin (or Referer) must be PUBLIC_URL's origin
 * or this request's own host. The host is Fastify's `request.host`: the Host header, or
 * X-Forwarded-Host from a TRUST_PROXY peer only; a reverse proxy that rewrites Host (nginx's default
 * `$proxy_host`) is covered by PUBLIC_URL. Either is safe: a cross-site page cannot choose the
 * Origin its visitor's browser sends, nor the Host it sends to us.
 */
function assertSameOrigin(request: FastifyRequest, publicOrigin: string | undefined): void {
  const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (!origin) return; // Non-browser clients send neither; SameSite=Lax keeps cookies off cross-site requests.
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new AppError('forbidden', 'Cross-origin request refused.');
  }
  if (publicOrigin !== undefined && parsed.origin === publicOrigin) return;
  // The scheme is not compared with the request's: behind a TLS-terminating balancer it arrives over http.
  const host = request.host;
  if (!host || parsed.host !== host) throw new AppError('forbidden', 'Cross-origin request refused.');
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'invalid:';
  }
}

/** Query parameters that carry credentials: one-time links, sign-on codes and tokens. */
const SECRET_PARAMETERS =
  /^(code|token|state|nonce|code_verifier|code_challenge|id_token|access_token|refresh_token|client_secret|password|key|api_key)$/i;

/** A URL fit for logs: credential-bearing query values replaced. */
export function redactUrl(url: string): string {
  const index = url.indexOf('?');
  if (index === -1) return url;
  const params = new URLSearchParams(url.slice(index + 1));
  for (const name of new Set(params.keys())) if (SECRET_PARAMETERS.test(name)) params.set(name, '[redacted]');
  return `${url.slice(0, index)}?${params.toString()}`;
}

/**
 * Request logs print the URL; reset links (`?token=`) and sign-on callbacks (`?code=`) must
 * not leave their secrets there. Given to the root logger (app.ts), so every request's child
 * logger inherits it without a per-request serializer merge.
 */
export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};
