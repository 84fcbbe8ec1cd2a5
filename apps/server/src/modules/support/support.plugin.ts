import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openApiRoutes } from './openapi.routes.ts';
import { ticketRoutes } from './tickets.routes.ts';

/** Support centre (tickets with attachments) and the OpenAPI document. */
export const supportPlugin: FastifyPluginAsyncZod = async (app) => {
  await app.register(openApiRoutes);
  await app.register(ticketRoutes);
};
