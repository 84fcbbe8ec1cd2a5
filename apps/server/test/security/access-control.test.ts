import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { concreteUrl, routeCatalog } from './route-catalog.ts';

/** Portal routes that a visitor may call without a session. */
const PUBLIC_PORTAL_ROUTES = [
  /^\/api\/v1\/auth\//,
  /^\/api\/v1\/support\/tickets$/, // visitors may open tickets
  /^\/api\/v1\/support\/faq/,
  /^\/api\/v1\/contact/,
];

describe('access control: anonymous', () => {
  let harness: TestApp;
  const catalog = routeCatalog();
  beforeAll(async () => {
    harness = await createTestApp({}, { onRoute: catalog.onRoute });
  });
  afterAll(async () => harness.close());

  it('refuses every private portal route without a session (401)', async () => {
    const privateRoutes = catalog.routes.filter(
      (route) => route.url.startsWith('/api/v1/') && !PUBLIC_PORTAL_ROUTES.some((pattern) => pattern.test(route.url)),
    );
    expect(privateRoutes.length).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const route of privateRoutes) {
      const response = await harness.app.inject({
        method: route.method as 'GET',
        url: concreteUrl(route.url, '1'),
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      if (response.statusCode !== 401) leaks.push(`${route.method} ${route.url} -> ${response.statusCode}`);
    }
    expect(leaks).toEqual([]);
  });

  it('refuses gateway calls without a valid key (401, OpenAI envelope)', async () => {
    for (const headers of [{}, { authorization: 'Bearer cc_live_sk_doesnotexist' }, { authorization: 'Basic abc' }]) {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers,
        payload: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.type).toBe('authentication_error');
    }
  });
});
