import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** GET /v1/openapi.json: the OpenAPI 3.1 description of the public API, generated from the route schemas. */
export const openApiRoutes: FastifyPluginAsyncZod = async (app) => {
  let document: unknown;
  app.get(
    '/v1/openapi.json',
    {
      schema: {
        tags: ['Status'],
        summary: 'OpenAPI document',
        description:
          'This document: an OpenAPI 3.1 description of every /v1 endpoint, generated from the zod schemas the server validates with.',
        security: [],
        response: { 200: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document') },
      },
    },
    async (_request, reply) => {
      document ??= app.swagger();
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
      return document as Record<string, unknown>;
    },
  );
};
