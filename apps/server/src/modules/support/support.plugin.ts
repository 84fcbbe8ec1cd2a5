import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Support centre (tickets with attachments) and the OpenAPI document. */
export const supportPlugin: FastifyPluginAsyncZod = async () => {};
