import { PLANS, YEARLY_SAVING_LABEL } from '@conductor/shared';
import { PlansResponse } from '@conductor/shared/schemas/plans';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** `GET /v1/observability/billing/plans`: the shared plan constant, the same data the pricing page and billing use. */
export const plansRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/v1/observability/billing/plans',
    {
      schema: {
        tags: ['Billing'],
        summary: 'Plans and prices',
        description: 'Free, Pro and Enterprise with monthly and yearly prices (USD), limits and features.',
        response: { 200: PlansResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { currency: 'USD' as const, yearlySavingLabel: YEARLY_SAVING_LABEL, plans: [...PLANS] };
    },
  );
};
