import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOutbox } from '../../lib/mailer.ts';

const OutboxMessage = z.object({ to: z.string(), subject: z.string(), text: z.string(), kind: z.string(), createdAt: z.string() });

/**
 * The development outbox over HTTP, for the browser tests (which run the real server in
 * another process). Registered only when NODE_ENV=test: it hands out one-time links.
 */
export const devOutboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/auth/dev-outbox',
    {
      schema: {
        hide: true,
        querystring: z.object({ to: z.string().min(3).max(254), kind: z.string().max(64).optional() }),
        response: { 200: z.object({ messages: z.array(OutboxMessage) }) },
      },
    },
    async (request) => {
      const rows = await readOutbox(app.context, request.query.to, request.query.kind);
      return {
        messages: rows.map((row) => ({
          to: row.to,
          subject: row.subject,
          text: row.text,
          kind: row.kind,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  );
};
