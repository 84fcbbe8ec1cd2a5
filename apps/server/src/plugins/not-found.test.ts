import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

describe('unknown routes and methods', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  it.each([
    ['GET', '/v1/chat/completions', 'POST'],
    ['PUT', '/v1/chat/completions', 'POST'],
    ['OPTIONS', '/v1/chat/completions?x=1', 'POST'],
    ['DELETE', '/v1/models', 'GET, HEAD'],
    ['POST', '/v1/models/gpt-4o', 'GET, HEAD'],
    ['POST', '/v1/health', 'GET, HEAD'],
  ] as const)('answers %s %s with 405 and Allow in the OpenAI envelope', async (method, url, allow) => {
    const response = await harness.app.inject({ method, url });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    const path = url.split('?')[0];
    expect(response.json()).toEqual({
      error: {
        message: `${method} is not allowed on ${path}: use ${allow.split(', ').join(' or ')}.`,
        type: 'invalid_request_error',
        param: null,
        code: 'method_not_allowed',
      },
    });
  });

  it('answers a portal route asked with the wrong method with 405 in the portal envelope', async () => {
    const response = await harness.app.inject({ method: 'DELETE', url: '/api/v1/auth/session' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toContain('GET');
    expect(response.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('still answers 404 for a path no route serves', async () => {
    for (const [method, url] of [
      ['POST', '/v1/completions'],
      ['POST', '/api/v1/nope'],
      ['GET', '/v1/models/gpt-4o/extra'],
    ] as const) {
      const response = await harness.app.inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(response.headers.allow).toBeUndefined();
    }
  });
});
