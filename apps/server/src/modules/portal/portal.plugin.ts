import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The signed-in portal: onboarding, usage, API keys, billing and settings under /api/v1. */
export const portalPlugin: FastifyPluginAsyncZod = async () => {};
