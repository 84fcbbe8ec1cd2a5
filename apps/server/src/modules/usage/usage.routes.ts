import { ActivityList, ActivityQuery, UsageCurrent, UsageMetrics, UsageRangeQuery } from '@conductor/shared/schemas/usage';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../portal/signed-in.ts';
import { currentUsage, recentActivity, usageCsv, usageMetrics } from './usage.service.ts';

/** Usage read from the daily rollup (and raw events for the last 24 hours). Mounted by the portal plugin. */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock } = app.context;
  const tags = ['Usage'];

  app.get(
    '/api/v1/observability/usage/current',
    { schema: { tags, summary: 'This month’s usage, today’s requests and the plan limits', response: { 200: UsageCurrent } } },
    async (request) => currentUsage(database.db, signedIn(request).user, clock.now()),
  );

  app.get(
    '/api/v1/observability/metrics',
    {
      schema: {
        tags,
        summary: 'Totals, time series and by-model usage for a range',
        querystring: UsageRangeQuery,
        response: { 200: UsageMetrics },
      },
    },
    async (request) => usageMetrics(database.db, signedIn(request).user.id, request.query.range, clock.now()),
  );

  app.get(
    '/api/v1/observability/usage/activity',
    { schema: { tags, summary: 'The latest requests', querystring: ActivityQuery, response: { 200: ActivityList } } },
    async (request) => {
      const { user, session } = signedIn(request);
      return { items: await recentActivity(database.db, user.id, request.query.limit, user.isDemo ? session.tokenHash : undefined) };
    },
  );

  app.get(
    '/api/v1/observability/usage/export',
    { schema: { tags, summary: 'The range as CSV', querystring: UsageRangeQuery } },
    async (request, reply) => {
      const now = clock.now();
      const csv = await usageCsv(database.db, signedIn(request).user.id, request.query.range, now);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="conductor-usage-${request.query.range}-${new Date(now).toISOString().slice(0, 10)}.csv"`,
        )
        .header('cache-control', 'no-store');
      return csv;
    },
  );
};
