import { SessionResponse } from '@conductor/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toPublicUser } from '../users/users.service.ts';
import { revokeSession } from './session.service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock } = app.context;

  app.get(
    '/api/v1/auth/session',
    { schema: { tags: ['Auth'], summary: 'The current session', response: { 200: SessionResponse } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!request.auth) return { isAuthenticated: false as const, user: null };
      return { isAuthenticated: true as const, user: await toPublicUser(database.db, request.auth.user, clock.now()) };
    },
  );

  app.post(
    '/api/v1/auth/logout',
    { schema: { tags: ['Auth'], summary: 'Sign out: revokes the session', response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request, reply) => {
      if (request.auth) await revokeSession(database.db, request.auth.session.tokenHash, clock.now());
      app.clearSessionCookie(reply);
      return { ok: true as const };
    },
  );
};
