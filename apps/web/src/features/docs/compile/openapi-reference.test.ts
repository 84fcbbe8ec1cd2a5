// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { abbreviate, compileApiReference, describeType, exampleFromSchema, type OpenApiDocument } from './openapi-reference';

const DOCUMENT: OpenApiDocument = {
  info: { title: 'Conductor API', version: '1.2.3', description: 'd' },
  tags: [{ name: 'Gateway', description: 'The API.' }],
  paths: {
    '/v1/health': { get: { summary: 'Service health', tags: ['Status'], security: [], responses: { 200: { description: 'ok' } } } },
    '/v1/models/{model}': {
      get: {
        summary: 'Retrieve a model',
        tags: ['Gateway'],
        security: [{ bearerAuth: [] }],
        parameters: [{ name: 'model', in: 'path', required: true, schema: { type: 'string', maxLength: 128 } }],
        responses: {
          200: {
            description: 'Default Response',
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
          },
        },
      },
    },
  },
};

describe('compileApiReference', () => {
  it('groups endpoints by tag (gateway first) with methods, auth, parameters and examples', async () => {
    const reference = await compileApiReference(DOCUMENT, { 'GET /v1/health': { status: 200, body: { status: 'operational' } } });
    expect(reference.groups.map((group) => group.tag)).toEqual(['Gateway', 'Status']);
    const [model] = reference.groups[0]?.endpoints ?? [];
    expect(model).toMatchObject({ id: 'get-v1-models-model', method: 'GET', path: '/v1/models/{model}', authenticated: true });
    expect(model?.parameters).toEqual([{ name: 'model', location: 'path', type: 'string', required: true, description: '' }]);
    expect(model?.requestExamples[0]?.code).toContain('-H "Authorization: Bearer $CONDUCTOR_API_KEY"');
    expect(model?.responseExample?.code).toContain('"id": "string"');
    const [health] = reference.groups[1]?.endpoints ?? [];
    expect(health?.authenticated).toBe(false);
    expect(health?.requestExamples[0]?.code).toBe('curl https://conductor.dev/v1/health');
    expect(health?.responseExample?.code).toContain('"status": "operational"');
  });
});

describe('schema helpers', () => {
  it('describes JSON schema types briefly', () => {
    expect(describeType(DOCUMENT, { type: 'string', enum: ['a', 'b'] })).toBe('"a" | "b"');
    expect(describeType(DOCUMENT, { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } })).toBe(
      '(string | integer)[]',
    );
    expect(describeType(DOCUMENT, { type: 'number', minimum: 0, maximum: 2 })).toBe('number (0–2)');
    expect(describeType(DOCUMENT, { type: ['string', 'null'] })).toBe('string | null');
  });

  it('builds placeholder examples and shortens long lists', () => {
    expect(
      exampleFromSchema(DOCUMENT, { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, on: { type: 'boolean' } } }),
    ).toEqual({ n: 1, on: true });
    expect(abbreviate({ list: [1, 2, 3, 4, 5], short: [1, 2, 3] })).toEqual({ list: [1, 2], short: [1, 2, 3] });
  });
});
