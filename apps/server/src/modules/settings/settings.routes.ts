import { UserResponse } from '@conductor/shared/schemas/onboarding';
import { RoutingSettings, RoutingSettingsInput } from '@conductor/shared/schemas/routing';
import {
  ChangePasswordInput,
  DeleteAccountInput,
  PASSWORD_CHANGED,
  ProviderKeyInput,
  ProviderParams,
  SessionIdParams,
  SessionList,
  UpdateProfileInput,
  WRONG_CURRENT_PASSWORD,
} from '@conductor/shared/schemas/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { confirmationMailLimiter, mailVerificationLater } from '../auth/email-verification.ts';
import { consumeOrWait, createLimiter } from '../auth/limiter.ts';
import { signedIn } from '../portal/signed-in.ts';
import { allowsLocalResource } from '../provider-keys/azure-resource.ts';
import {
  changePassword,
  deleteAccount,
  listSessions,
  profileChangeChecksPassword,
  readRoutingPolicy,
  removeProviderKey,
  revokeSessionById,
  saveProviderKey,
  saveRoutingPolicy,
  updateProfile,
} from './settings.service.ts';

const Ok = z.object({ ok: z.literal(true), message: z.string().optional() });

/** Wrong current passwords allowed per account before a wait (as many as sign-in allows per account and address). */
export const PASSWORD_CHECKS = { points: 5, durationSeconds: 15 * 60 } as const;
const passwordChecksThrottled = (minutes: number) =>
  `Too many wrong current passwords. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock, secrets, mailer, env } = app.context;
  const tags = ['Settings'];
  // The auth routes' resend takes from the same count per account (one instance, in memory too).
  const confirmationMails = confirmationMailLimiter(app.context);
  const passwordChecks = createLimiter({
    name: 'settings-password-check',
    redis: app.context.redis,
    redisPrefix: env.GATEWAY_REDIS_PREFIX,
    ...PASSWORD_CHECKS,
  });
  /**
   * Runs a change that checks the current password (the password itself, the e-mail). Wrong
   * current passwords are counted per account, on both: a stolen session cannot guess on, nor
   * spend the password hashing every sign-in shares. Each attempt reserves its point before the
   * password is verified, atomically in the limiter, so attempts sent at once cannot all pass a
   * count that only the finished ones would raise; an attempt that turns out not to be a wrong
   * password gives its point back, and a change that passes clears the count.
   */
  const checkingPassword = async <T>(userId: string, change: () => Promise<T>): Promise<T> => {
    const wait = await consumeOrWait(passwordChecks, userId);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      throw new AppError('rate_limited', passwordChecksThrottled(Math.ceil(seconds / 60)), { retryAfterSeconds: seconds });
    }
    let result: T;
    try {
      result = await change();
    } catch (error) {
      if (!(error instanceof AppError && error.fields?.currentPassword === WRONG_CURRENT_PASSWORD)) await passwordChecks.reward(userId, 1);
      throw error;
    }
    await passwordChecks.delete(userId);
    return result;
  };

  app.patch(
    '/api/v1/settings/profile',
    { schema: { tags, summary: 'Update name and e-mail', body: UpdateProfileInput, response: { 200: UserResponse } } },
    async (request) => {
      const { user, session } = signedIn(request);
      const update = () => updateProfile(database.db, { user, session }, request.body, clock.now(), mailer);
      // Only a change that checks the password counts (and clears the count): a name alone must not reset the guesses.
      const updated = await (profileChangeChecksPassword(user, request.body) ? checkingPassword(user.id, update) : update());
      // A new address is unconfirmed: its confirmation link goes to it after the answer, at most
      // three an hour per account (as the banner's resend), so changes cannot flood an inbox.
      if (updated.email !== user.email && !updated.verified && (await consumeOrWait(confirmationMails, user.id)) === 0) {
        mailVerificationLater(app.context, request, { id: user.id, email: updated.email, name: updated.name });
      }
      return { user: updated };
    },
  );

  app.post(
    '/api/v1/settings/password',
    { schema: { tags, summary: 'Change password (checks the current one)', body: ChangePasswordInput, response: { 200: Ok } } },
    async (request) => {
      const { user, session } = signedIn(request);
      await checkingPassword(user.id, () => changePassword(database.db, user, request.body, session.tokenHash, clock.now()));
      return { ok: true as const, message: PASSWORD_CHANGED };
    },
  );

  app.get(
    '/api/v1/settings/sessions',
    { schema: { tags, summary: 'Active sessions', response: { 200: SessionList } } },
    async (request) => {
      const { user, session } = signedIn(request);
      return { sessions: await listSessions(database.db, user, session.tokenHash, clock.now()) };
    },
  );

  app.delete(
    '/api/v1/settings/sessions/:id',
    { schema: { tags, summary: 'Sign out another session', params: SessionIdParams, response: { 200: Ok } } },
    async (request) => {
      const { user, session } = signedIn(request);
      await revokeSessionById(database.db, user, request.params.id, session.tokenHash, clock.now());
      return { ok: true as const };
    },
  );

  app.post(
    '/api/v1/settings/provider-keys/:provider',
    {
      schema: {
        tags,
        summary: 'Add or replace a provider key (stored encrypted)',
        params: ProviderParams,
        body: ProviderKeyInput,
        response: { 200: UserResponse },
      },
    },
    async (request) => ({
      user: await saveProviderKey(
        database.db,
        secrets.encryptionKey,
        signedIn(request).user,
        request.params.provider,
        // Loopback endpoints only where tests aim the gateway at fake upstreams (as for the server's own).
        { ...request.body, allowLocalEndpoint: allowsLocalResource(env) },
        clock.now(),
      ),
    }),
  );

  app.delete(
    '/api/v1/settings/provider-keys/:provider',
    { schema: { tags, summary: 'Remove a provider key', params: ProviderParams, response: { 200: UserResponse } } },
    async (request) => ({ user: await removeProviderKey(database.db, signedIn(request).user, request.params.provider, clock.now()) }),
  );

  app.get(
    '/api/v1/settings/routing',
    {
      schema: {
        tags,
        summary: 'The account default routing policy (null: none, requests route single)',
        response: { 200: RoutingSettings },
      },
    },
    async (request) => ({ policy: readRoutingPolicy(signedIn(request).user) }),
  );

  app.put(
    '/api/v1/settings/routing',
    {
      schema: {
        tags,
        summary: 'Set or clear the account default routing policy (the request header and body still override it)',
        body: RoutingSettingsInput,
        response: { 200: RoutingSettings },
      },
    },
    async (request) => ({ policy: await saveRoutingPolicy(database.db, signedIn(request).user, request.body.policy) }),
  );

  app.post(
    '/api/v1/settings/delete-account',
    {
      schema: {
        tags,
        summary: 'Delete the account (typed confirmation, and the current password for accounts that have one)',
        body: DeleteAccountInput,
        response: { 200: Ok },
      },
    },
    async (request, reply) => {
      const { user, session } = signedIn(request);
      await checkingPassword(user.id, () =>
        deleteAccount(database.db, { user, session }, request.body.currentPassword, clock.now(), mailer),
      );
      app.clearSessionCookie(reply);
      return { ok: true as const };
    },
  );
};
