import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { KEY_PREFIX } from '@conductor/shared';
import { describeGatewayRoute, GATEWAY_TAG } from './openapi-gateway.ts';

/** Only the public, OpenAI-compatible API is documented; the portal API (/api/v1) is internal. */
export function isDocumentedPath(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/');
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as registered (the OpenAPI coverage test compares the document with it). */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

const TAGS = [
  {
    name: GATEWAY_TAG,
    description:
      'The OpenAI-compatible API: chat completions (JSON or Server-Sent Events), the model catalogue and the providers behind it. Every call needs an API key.',
  },
  { name: 'Status', description: 'Service health, status history and this API description. No API key needed.' },
  { name: 'Billing', description: 'Public plan and price information. No API key needed.' },
  { name: 'Waitlist', description: 'Launch waitlist sign-ups and product-news subscriptions. No API key needed.' },
];

/**
 * Registers @fastify/swagger at the application level, before any route, so the document
 * sees every route of the app. Schemas come from the shared zod contracts through
 * fastify-type-provider-zod; routes outside /v1 are left out.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method: method.toUpperCase(), url: route.url });
  });
  const zodTransform = createJsonSchemaTransform({});
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Conductor API',
        version,
        summary: 'One OpenAI-compatible API in front of OpenAI, Anthropic, Google, Azure OpenAI, Mistral and Cohere.',
        description:
          'Send OpenAI-style requests to Conductor with a Conductor API key as a Bearer token. ' +
          `Live keys start with \`${KEY_PREFIX.live}\`; test keys (\`${KEY_PREFIX.test}\`) are answered by the built-in ` +
          'sandbox, never reach an upstream provider and use no quota. Errors use the OpenAI error envelope ' +
          '`{"error":{"message","type","param","code"}}`.',
      },
      servers: [{ url: '/', description: 'This Conductor deployment' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `A Conductor API key: \`${KEY_PREFIX.live}…\` or \`${KEY_PREFIX.test}…\`.`,
          },
        },
      },
    },
    transform: (input) => {
      if (!isDocumentedPath(input.url))
        return { schema: { ...(input.schema as FastifySchema), hide: true } as FastifySchema, url: input.url };
      const transformed = zodTransform(input);
      const method = [input.route.method].flat()[0]?.toUpperCase() ?? 'GET';
      return {
        url: transformed.url,
        schema: describeGatewayRoute(method, input.url, transformed.schema as Parameters<typeof describeGatewayRoute>[2]),
      };
    },
    transformObject: createJsonSchemaTransformObject({}),
  });
}
