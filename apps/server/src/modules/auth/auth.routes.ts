import {
  AuthMessageResponse,
  AuthUserResponse,
  ForgotPasswordRequest,
  LoginRequest,
  MESSAGES,
  RegisterRequest,
  ResetLinkCheckRequest,
  ResetLinkCheckResponse,
  ResetPasswordRequest,
  SessionResponse,
  VerifyEmailRequest,
} from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addressBucket } from '../../lib/client-address.ts';
import { AppError } from '../../lib/errors.ts';
import { oidcPlugin } from '../oidc/oidc.plugin.ts';
import type { UserRow } from '../users/users.repository.ts';
import { toPublicUser } from '../users/users.service.ts';
import { authenticate, registerAccount } from './auth.service.ts';
import { devOutboxRoutes } from './dev-outbox.routes.ts';
import { confirmationMailLimiter, mailVerificationLater, verifyEmail } from './email-verification.ts';
import { consumeOrWait, createLimiter } from './limiter.ts';
import { createLoginThrottle } from './login-throttle.ts';
import { checkPasswordResetLink, resetPassword, sendPasswordResetLink } from './password-reset.service.ts';
import { publicOrigin } from './public-origin.ts';
import { endSession } from './end-session.ts';
import { createSession, createSessionWhilePasswordIs } from './session.service.ts';

const tags = ['Auth'];

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock, env, redis, mailer, secrets } = app.context;
  const db = database.db;
  const redisPrefix = env.GATEWAY_REDIS_PREFIX;
  const throttle = createLoginThrottle(redis, redisPrefix);
  const registrations = createLimiter({ name: 'register-ip', points: 200, durationSeconds: 10 * 60, redis, redisPrefix });
  const resetRequestsPerIp = createLimiter({ name: 'reset-ip', points: 10, durationSeconds: 15 * 60, redis, redisPrefix });
  // Per account and address (an IPv6 /64 as one): what a stranger asks for does not use up the owner's.
  const resetMailsPerAccount = createLimiter({ name: 'reset-account-ip', points: 3, durationSeconds: 60 * 60, redis, redisPrefix });
  // Links are 256-bit tokens or HMACs: this bounds the work one address makes, not guessing.
  const linkUsesPerIp = createLimiter({ name: 'link-use-ip', points: 30, durationSeconds: 15 * 60, redis, redisPrefix });
  const verificationMailsPerAccount = confirmationMailLimiter(app.context);

  /**
   * Opens a session for the user (replacing the caller's previous one) and answers with the portal
   * user. A password sign-in passes the hash it verified: the session opens only while that is still
   * the account's password, else the sign-in fails as a wrong password would (a reset or change
   * that landed during the check has signed the account out).
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply, user: UserRow, remember: boolean, verifiedHash?: string) {
    const now = clock.now();
    const options = { remember, userAgent: request.headers['user-agent'], ip: request.ip, now };
    const session = verifiedHash
      ? await createSessionWhilePasswordIs(db, user.id, verifiedHash, options)
      : await createSession(db, user.id, options);
    if (!session) throw new AppError('unauthorized', MESSAGES.login.invalidCredentials);
    if (request.auth) await endSession(db, request.auth, now);
    app.setSessionCookie(reply, session);
    reply.header('cache-control', 'no-store');
    return { user: await toPublicUser(db, user, now) };
  }

  /** Sends the account's confirmation link after the answer (closing the app waits for it). */
  const mailVerification = (request: FastifyRequest, user: UserRow) => mailVerificationLater(app.context, request, user);

  /** Takes a point for `key`; none left is a 429 with Retry-After. */
  async function limit(limiter: ReturnType<typeof createLimiter>, key: string) {
    const waitMs = await consumeOrWait(limiter, key);
    if (waitMs > 0) throw new AppError('rate_limited', MESSAGES.rateLimited, { retryAfterSeconds: Math.ceil(waitMs / 1000) });
  }
  const limitByIp = (limiter: ReturnType<typeof createLimiter>, request: FastifyRequest) => limit(limiter, addressBucket(request.ip));

  app.get(
    '/api/v1/auth/session',
    { schema: { tags, summary: 'The current session', response: { 200: SessionResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!request.auth) return { isAuthenticated: false as const, user: null };
      return { isAuthenticated: true as const, user: await toPublicUser(db, request.auth.user, clock.now()) };
    },
  );

  app.get(
    '/api/v1/auth/me',
    {
      schema: { tags, summary: 'The signed-in user; 401 when the session has ended', response: { 200: AuthUserResponse } },
      preHandler: app.requireUser,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { user: await toPublicUser(db, request.auth!.user, clock.now()) };
    },
  );

  app.post(
    '/api/v1/auth/register',
    { schema: { tags, summary: 'Create an account and sign in', body: RegisterRequest, response: { 201: AuthUserResponse } } },
    async (request, reply) => {
      await limitByIp(registrations, request);
      const user = await registerAccount(db, request.body, clock.now());
      const body = await signIn(request, reply, user, false);
      mailVerification(request, user);
      return reply.status(201).send(body);
    },
  );

  app.post(
    '/api/v1/auth/login',
    { schema: { tags, summary: 'Sign in with e-mail and password', body: LoginRequest, response: { 200: AuthUserResponse } } },
    async (request, reply) => {
      const user = await authenticate(db, throttle, { email: request.body.email, password: request.body.password, ip: request.ip });
      return signIn(request, reply, user, request.body.remember, user.passwordHash ?? undefined);
    },
  );

  app.post(
    '/api/v1/auth/logout',
    { schema: { tags, summary: 'Sign out: revokes the session', response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request, reply) => {
      if (request.auth) await endSession(db, request.auth, clock.now());
      app.clearSessionCookie(reply);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/v1/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'E-mail a single-use password reset link (same answer whether or not the account exists)',
        body: ForgotPasswordRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request) => {
      await limitByIp(resetRequestsPerIp, request);
      const email = request.body.email.toLowerCase();
      if ((await consumeOrWait(resetMailsPerAccount, `${email}|${addressBucket(request.ip)}`)) === 0) {
        // After the answer (the same timing whether or not the account exists); closing waits for it.
        mailer.background(
          sendPasswordResetLink({ db, mailer }, { email, origin: publicOrigin(env, request), now: clock.now() }).catch((error: unknown) =>
            request.log.error({ err: error }, 'password reset e-mail failed'),
          ),
        );
      }
      return { message: AUTH_COPY.forgotPasswordSent };
    },
  );

  app.post(
    '/api/v1/auth/reset-password/check',
    {
      schema: {
        tags,
        summary: 'Whether a password reset link can still be used (it is not used up by asking)',
        body: ResetLinkCheckRequest,
        response: { 200: ResetLinkCheckResponse },
      },
    },
    async (request) => {
      // Counted with the links' uses: asking cannot be used to try more tokens than using them.
      await limitByIp(linkUsesPerIp, request);
      await checkPasswordResetLink(db, request.body.token, clock.now());
      return { usable: true as const };
    },
  );

  app.post(
    '/api/v1/auth/reset-password',
    {
      schema: {
        tags,
        summary: 'Choose a new password with a reset link; signs the account out everywhere else',
        body: ResetPasswordRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request) => {
      await limitByIp(linkUsesPerIp, request);
      const { reclaimed, planStopped, user } = await resetPassword(db, {
        token: request.body.token,
        password: request.body.password,
        now: clock.now(),
        keepSessionTokenHash: request.auth?.session.tokenHash,
        onPlanError: (error) => request.log.error({ err: error }, "a reclaimed account's paid plan could not be set to end"),
      });
      // The owner who just proved the mailbox gets a link to confirm the address too.
      if (reclaimed && user) mailVerification(request, user);
      if (!reclaimed) return { message: AUTH_COPY.resetDone };
      return { message: planStopped ? AUTH_COPY.resetDoneReclaimedPlan : AUTH_COPY.resetDoneReclaimed };
    },
  );

  app.post(
    '/api/v1/auth/verify-email',
    {
      schema: {
        tags,
        summary: "Confirm the account's e-mail address with the link e-mailed to it",
        body: VerifyEmailRequest,
        response: { 200: AuthMessageResponse },
      },
    },
    async (request) => {
      await limitByIp(linkUsesPerIp, request);
      // The account's own session only (email-verification.ts); the page asks to sign in first.
      if (!request.auth) throw new AppError('unauthorized', AUTH_COPY.verifyEmailSignIn);
      await verifyEmail(db, secrets.sessionSecret, request.body.token, request.auth.user, clock.now());
      return { message: AUTH_COPY.verifyEmailDone };
    },
  );

  app.post(
    '/api/v1/auth/verification-email',
    {
      schema: { tags, summary: 'E-mail the signed-in account a new confirmation link', response: { 200: AuthMessageResponse } },
      preHandler: app.requireUser,
    },
    async (request) => {
      const user = request.auth?.user;
      if (!user) throw new AppError('unauthorized', MESSAGES.sessionExpired);
      if (user.verified) return { message: AUTH_COPY.verifyEmailAlready };
      await limit(verificationMailsPerAccount, user.id);
      mailVerification(request, user);
      return { message: AUTH_COPY.verifyEmailSent(user.email) };
    },
  );

  await app.register(oidcPlugin);
  if (env.NODE_ENV === 'test') await app.register(devOutboxRoutes);
};
