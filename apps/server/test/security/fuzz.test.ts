import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../helpers.ts';
import { type CatalogRoute, concreteUrl, HOSTILE_STRINGS, objectKeys, routeCatalog } from './route-catalog.ts';

/**
 * Every route of the app, fuzzed with generated bodies, query strings, parameters and
 * headers, anonymous and signed in: the answer is never a 5xx and the process survives.
 */
describe('route fuzzing', () => {
  let harness: TestApp;
  let cookie: string;
  const catalog = routeCatalog();

  beforeAll(async () => {
    harness = await createTestApp({}, { onRoute: catalog.onRoute });
    ({ cookie } = await createUserWithSession(harness.app));
  });
  afterAll(async () => harness.close());

  const hostileValue = fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.string({ maxLength: 200 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string({ maxLength: 20 }), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 5 }),
  );

  function bodyFor(route: CatalogRoute) {
    const keys = objectKeys(route.body);
    const nearValid =
      keys.length > 0 ? fc.record(Object.fromEntries(keys.map((key) => [key, hostileValue])), { requiredKeys: [] }) : fc.object();
    return fc.oneof(nearValid, fc.jsonValue(), fc.constantFrom(...HOSTILE_STRINGS));
  }

  it('discovers the API routes', () => {
    const apiRoutes = catalog.routes.filter((route) => route.url.startsWith('/api/') || route.url.startsWith('/v1'));
    expect(apiRoutes.length).toBeGreaterThan(3);
  });

  it('never answers 5xx to generated input on any route', async () => {
    const routes = catalog.routes.filter((route) => route.url !== '/*' && route.url !== '/metrics');
    const failures: string[] = [];
    for (const route of routes) {
      await fc
        .assert(
          fc.asyncProperty(
            bodyFor(route),
            fc.dictionary(fc.constantFrom('q', 'range', 'limit', 'page', 'id', 'from', 'to', 'format'), hostileValue.map(String), {
              maxKeys: 3,
            }),
            fc.constantFrom(...HOSTILE_STRINGS.slice(0, 10), '1', '00000000-0000-0000-0000-000000000000'),
            fc.boolean(),
            fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
            async (body, query, parameter, signedIn, contentType) => {
              const search = new URLSearchParams(query).toString();
              const url = `${concreteUrl(route.url, parameter)}${search ? `?${search}` : ''}`;
              const response = await harness.app.inject({
                method: route.method as 'GET',
                url,
                headers: {
                  'content-type': contentType,
                  ...(signedIn ? { cookie } : {}),
                  authorization: 'Bearer cc_test_sk_invalid',
                  'x-conductor-routing': String(parameter),
                },
                ...(route.method === 'GET' || route.method === 'DELETE'
                  ? {}
                  : { payload: contentType === 'application/json' ? JSON.stringify(body) : String(body) }),
              });
              if (response.statusCode >= 500)
                failures.push(`${route.method} ${url} -> ${response.statusCode} ${response.body.slice(0, 200)}`);
              return response.statusCode < 500;
            },
          ),
          { numRuns: 25, seed: 20261121 },
        )
        .catch(() => undefined);
    }
    expect(failures).toEqual([]);
  });

  it('leaves the database intact after injection payloads', async () => {
    const result = await harness.app.context.database.db.execute(sql`select count(*)::int as count from users`);
    expect(Number((result.rows[0] as { count: number }).count)).toBeGreaterThan(0);
    const health = await harness.app.inject({ method: 'GET', url: '/v1/health' });
    expect(health.statusCode).toBe(200);
  });
});
