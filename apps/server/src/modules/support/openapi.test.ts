import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { isDocumentedPath } from './openapi.ts';

type Operation = { summary?: string; security?: unknown; responses?: Record<string, unknown> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components?: { securitySchemes?: object } };

/** `/v1/models/:id` → `/v1/models/{id}`, as OpenAPI writes path parameters. */
const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('GET /v1/openapi.json', () => {
  let test: TestApp;
  let document: Document;
  beforeAll(async () => {
    test = await createTestApp();
    const response = await test.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(async () => test.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
    expect(document.components?.securitySchemes).toHaveProperty('bearerAuth');
  });

  it('documents every /v1 route of the app, with a summary and responses, and nothing else', () => {
    const routes = test.app.registeredRoutes.filter(
      (route) => isDocumentedPath(route.url) && route.method !== 'HEAD' && route.method !== 'OPTIONS',
    );
    expect(routes.length).toBeGreaterThan(1);
    for (const route of routes) {
      const operation = document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation?.summary, `${route.method} ${route.url} summary`).toBeTruthy();
      expect(Object.keys(operation?.responses ?? {}).length, `${route.method} ${route.url} responses`).toBeGreaterThan(0);
    }
    for (const path of Object.keys(document.paths)) expect(isDocumentedPath(path), path).toBe(true);
  });

  it('includes the health endpoint and itself, without authentication', () => {
    expect(document.paths['/v1/health']?.get).toBeDefined();
    expect(document.paths['/v1/openapi.json']?.get?.security).toEqual([]);
  });

  it('describes the gateway: Bearer authentication, the chat request body and the OpenAI error envelope', () => {
    type Full = Operation & { security?: unknown; requestBody?: { content: Record<string, { schema: { properties?: object } }> } };
    const chat = document.paths['/v1/chat/completions']?.post as Full | undefined;
    expect(chat?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(chat?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['model', 'messages', 'temperature', 'max_tokens', 'stream', 'conductor']),
    );
    expect(Object.keys(chat?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '429', '502', '503', '504']));
    const models = document.paths['/v1/models']?.get as Full | undefined;
    expect(models?.security).toEqual([{ bearerAuth: [] }]);
  });
});
