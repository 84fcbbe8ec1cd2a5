import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The OpenAI-compatible gateway under /v1 (chat completions, models, providers). */
export const gatewayPlugin: FastifyPluginAsyncZod = async () => {};
