import { SessionResponse } from '@conductor/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/auth/session',
    { schema: { tags: ['Auth'], summary: 'The current session', response: { 200: SessionResponse } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { isAuthenticated: false as const, user: null };
    },
  );
};
