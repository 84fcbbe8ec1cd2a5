import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { DEMO_CREDENTIALS, MESSAGES } from '@conductor/shared';
import {
  AuthProvidersResponse,
  OidcCallbackRequest,
  OidcCallbackResponse,
  OidcStartRequest,
  OidcStartResponse,
} from '@conductor/shared/schemas/sso';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addressBucket } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';
import { consumeOrWait, createLimiter } from '../auth/limiter.ts';
import { publicOrigin } from '../auth/public-origin.ts';
import { endSession } from '../auth/end-session.ts';
import { createSession } from '../auth/session.service.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { toPublicUser } from '../users/users.service.ts';
import type { SsoProviders } from './providers.ts';
import { completeSso, startSso } from './sso.service.ts';
import { SSO_TRANSACTION_TTL_SECONDS, type SsoTransactionStore } from './sso-transactions.ts';

const tags = ['Auth'];
/** Binds a sign-on attempt to the browser that started it (login CSRF protection). */
export const SSO_COOKIE = 'cc_sso';
const SSO_COOKIE_PATH = '/api/v1/auth/oidc';

export const oidcRoutes: FastifyPluginAsyncZod<{ providers: SsoProviders; transactions: SsoTransactionStore }> = async (app, options) => {
  const { database, clock, env, redis } = app.context;
  const db = database.db;
  const deps = { db, providers: options.providers, transactions: options.transactions };
  const secure = env.PUBLIC_URL?.startsWith('https:') ?? env.NODE_ENV === 'production';
  const attempts = createLimiter({ name: 'sso-ip', points: 30, durationSeconds: 60, redis, redisPrefix: env.GATEWAY_REDIS_PREFIX });

  const limit = async (request: FastifyRequest) => {
    // Per client as the other sign-in limits count one (an IPv6 /64 is one subscriber).
    const waitMs = await consumeOrWait(attempts, addressBucket(request.ip));
    if (waitMs > 0) throw new AppError('rate_limited', MESSAGES.rateLimited, { retryAfterSeconds: Math.ceil(waitMs / 1000) });
  };

  app.get(
    '/api/v1/auth/providers',
    { schema: { tags, summary: 'Single sign-on providers and whether each is configured', response: { 200: AuthProvidersResponse } } },
    async () => {
      const demoUser = env.DEMO_ACCOUNT === 'on' ? await findUserByEmail(db, DEMO_CREDENTIALS.email) : undefined;
      return {
        providers: Object.values(options.providers).map(({ id, name, issuer, configured, note }) => ({
          id,
          name,
          issuer,
          configured,
          note,
        })),
        demoAccount: Boolean(demoUser?.isDemo && demoUser.passwordHash),
      };
    },
  );

  app.post(
    '/api/v1/auth/oidc/start',
    {
      schema: {
        tags,
        summary: 'Begin single sign-on: registers state, nonce and PKCE challenge; answers the authorization URL',
        body: OidcStartRequest,
        response: { 200: OidcStartResponse },
      },
    },
    async (request, reply) => {
      await limit(request);
      const expected = `${publicOrigin(env, request)}/auth/callback`;
      if (request.body.redirectUri !== expected) {
        throw new AppError('bad_request', `The redirect URI must be ${expected}.`, { fields: { redirectUri: `must be ${expected}` } });
      }
      if (request.body.reauthenticate && !request.auth) throw new AppError('unauthorized', AUTH_COPY.ssoReauthSignedOut);
      const reauthUserId = request.body.reauthenticate ? request.auth?.user.id : undefined;
      const started = await startSso(deps, request.body, clock.now(), reauthUserId);
      reply.setCookie(SSO_COOKIE, started.transactionId, {
        path: SSO_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: SSO_TRANSACTION_TTL_SECONDS,
      });
      reply.header('cache-control', 'no-store');
      return { authorizationUrl: started.authorizationUrl, issuer: started.issuer };
    },
  );

  app.post(
    '/api/v1/auth/oidc/callback',
    {
      schema: {
        tags,
        summary: 'Finish single sign-on: exchanges the code, validates the ID token, signs in',
        body: OidcCallbackRequest,
        response: { 200: OidcCallbackResponse },
      },
    },
    async (request, reply) => {
      await limit(request);
      reply.clearCookie(SSO_COOKIE, { path: SSO_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
      reply.header('cache-control', 'no-store');
      const now = clock.now();
      const { user, isNewUser } = await completeSso(deps, request.cookies[SSO_COOKIE], request.body, now);
      // A fresh session for the new sign-in; whatever session the browser had before ends here.
      if (request.auth) await endSession(db, request.auth, now);
      const session = await createSession(db, user.id, { remember: false, userAgent: request.headers['user-agent'], ip: request.ip, now });
      app.setSessionCookie(reply, session);
      return { user: await toPublicUser(db, user, now), isNewUser };
    },
  );
};
