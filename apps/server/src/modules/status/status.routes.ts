import { StatusResponse } from '@conductor/shared/schemas/status';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createStatusService } from './status.service.ts';
import { registerPeriodicJob } from '../../lib/periodic-job.ts';

/**
 * `GET /v1/status` and the health-check scheduler that records the history behind it, every
 * HEALTH_CHECK_INTERVAL_MS (off under NODE_ENV=test unless HEALTH_CHECK_SCHEDULER=on).
 */
export const statusRoutes: FastifyPluginAsyncZod = async (app) => {
  const { env, database, clock } = app.context;
  const service = createStatusService({
    env,
    db: database.db,
    pingDatabase: () => database.ping(),
    // The gateway registers after this plugin; read it when a check runs.
    isProviderHealthy: (provider) => (app.gateway ? app.gateway.isProviderHealthy(provider) : true),
    now: () => clock.now(),
    log: app.log,
  });

  app.get(
    '/v1/status',
    {
      schema: {
        tags: ['Status'],
        summary: 'System status and uptime history',
        description:
          'Live state of the API, gateway, database and each configured provider, with one entry per day of the last 90 days built from the recorded health checks.',
        response: { 200: StatusResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getStatus();
    },
  );

  const enabled = env.HEALTH_CHECK_SCHEDULER ? env.HEALTH_CHECK_SCHEDULER === 'on' : env.NODE_ENV !== 'test';
  if (!enabled) return;
  registerPeriodicJob(app, {
    what: 'a health check round',
    intervalMs: env.HEALTH_CHECK_INTERVAL_MS,
    atStart: true,
    run: () => service.checkAndRecord(),
  });
};
