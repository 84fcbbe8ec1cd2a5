import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The orchestrator's probes, outside the public API (and its OpenAPI document). */
const LivenessResponse = z.object({ status: z.literal('ok') });
const ReadinessResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  reason: z.enum(['shutting_down', 'database_unreachable']).optional(),
});

/**
 * `GET /livez`: the process answers; no dependency is checked, so a database outage never gets
 * every instance restarted. `GET /readyz`: whether to send this instance requests: 503 while the
 * database is unreachable, and from the start of a shutdown (see `closeGracefully`).
 */
export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/livez', { schema: { hide: true, response: { 200: LivenessResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });

  app.get('/readyz', { schema: { hide: true, response: { 200: ReadinessResponse, 503: ReadinessResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (app.readiness.shuttingDown) return reply.status(503).send({ status: 'not_ready', reason: 'shutting_down' });
    // Checked again after the ping: a shutdown that began meanwhile wins.
    const databaseUp = await app.context.database.ping();
    if (app.readiness.shuttingDown) return reply.status(503).send({ status: 'not_ready', reason: 'shutting_down' });
    if (!databaseUp) return reply.status(503).send({ status: 'not_ready', reason: 'database_unreachable' });
    return { status: 'ready' as const };
  });
};
