import { HealthResponse } from '@conductor/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkHealth } from './health.service.ts';
import { probeRoutes } from './probe.routes.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(probeRoutes);
  app.get(
    '/v1/health',
    {
      schema: {
        tags: ['Status'],
        summary: 'Service health',
        description:
          'Overall status, database reachability, Redis reachability (when the server uses Redis) and the number of available upstream providers. 503 only when the database is unreachable.',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth({
        env: app.context.env,
        pingDatabase: app.context.database.ping,
        ...(app.gateway ? { healthyProviders: () => app.gateway.healthyProviders() } : {}),
        ...(app.context.redis ? { redisUp: () => app.context.redis?.status === 'ready' } : {}),
        startedAt: app.context.startedAt,
        now: app.context.clock.now,
        version: app.context.version,
      });
      reply.header('cache-control', 'no-store');
      return reply.status(health.checks.database === 'outage' ? 503 : 200).send(health);
    },
  );
};
