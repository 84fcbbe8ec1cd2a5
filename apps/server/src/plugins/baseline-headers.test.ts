import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

const BASELINE = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** Every reply carries the request id and the security headers, refusals by an early hook included. */
describe('baseline response headers', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const cases: [string, InjectOptions, number][] = [
    ['a portal read', { method: 'GET', url: '/api/v1/auth/session' }, 200],
    ['an unknown route', { method: 'GET', url: '/api/v1/nope' }, 404],
    ['a gateway call without a key', { method: 'POST', url: '/v1/chat/completions', payload: {} }, 401],
    [
      'a cross-origin portal write, refused before the route',
      { method: 'POST', url: '/api/v1/auth/logout', headers: { origin: 'https://evil.example', host: 'localhost:80' }, payload: {} },
      403,
    ],
  ];
  for (const [name, request, status] of cases) {
    it(`on ${name}`, async () => {
      const response = await harness.app.inject(request);
      expect(response.statusCode).toBe(status);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      for (const [header, value] of Object.entries(BASELINE)) expect(response.headers[header], header).toBe(value);
    });
  }

  it('a different request id for every request', async () => {
    const ids = new Set<string>();
    for (let index = 0; index < 5; index += 1) {
      ids.add(String((await harness.app.inject({ method: 'GET', url: '/v1/health' })).headers['x-request-id']));
    }
    expect(ids.size).toBe(5);
  });
});
