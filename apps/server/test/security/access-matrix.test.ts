/**
 * Access-control matrix with real data. User A owns keys, usage, an invoice, a ticket with an
 * attachment, two sessions, a provider key and a profile; user B then calls every /api/v1 route
 * (the catalogue is enumerated through buildApp's onRoute, and a route without a row here fails
 * the suite) using A's real ids wherever a route takes one. B must never see or change A's
 * data, and afterwards A's data must be exactly as before. On /v1, API keys are checked by
 * permission (API access vs admin only), and neither credential works on the other surface.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, users } from '../../src/db/schema/index.ts';
import { createSession, SESSION_COOKIE } from '../../src/modules/auth/session.service.ts';
import { spendTrial } from '../../src/modules/portal/portal-testing.ts';
import { multipart, PNG_1X1 } from '../fault/http-client.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { type CatalogRoute, routeCatalog } from './route-catalog.ts';

const PASSWORD_A = 'Matrix-Owner-Alpha-71';
const PASSWORD_B = 'Matrix-Other-Bravo-72';
const messages = [{ role: 'user', content: 'matrix' }];

interface Caller {
  id: string;
  email: string;
  cookie: string;
}

interface OwnerData {
  markers: string[];
  keyIds: Record<'test' | 'live' | 'admin' | 'both', string>;
  keys: Record<'test' | 'live' | 'admin' | 'both', string>;
  invoiceId: string;
  ticketId: string;
  attachmentId: string;
  sessionIds: string[];
  cookies: string[];
}

/** How B calls one route: A's ids in the path, a body B could legitimately send, and the statuses that are acceptable. */
interface Case {
  url?: (a: OwnerData) => string;
  body?: (b: Caller) => unknown;
  multipart?: boolean;
  expect: number[];
}

const ticketForm = (subject: string) =>
  multipart({ subject, priority: 'low', category: 'account', description: `${subject} description` }, [
    { field: 'attachments', filename: 'proof.png', contentType: 'image/png', data: PNG_1X1 },
  ]);

/** One row per /api/v1 route. Cross-account targets must answer 404 (nothing to tell about A's ids). */
const MATRIX: Record<string, Case> = {
  'GET /api/v1/auth/session': { expect: [200] },
  'GET /api/v1/auth/me': { expect: [200] },
  'POST /api/v1/auth/register': {
    body: () => ({ name: 'Charlie', email: `charlie-${Date.now()}@example.com`, password: PASSWORD_B }),
    expect: [201],
  },
  'POST /api/v1/auth/login': { body: (b) => ({ email: b.email, password: PASSWORD_B }), expect: [200] },
  'POST /api/v1/auth/logout': { expect: [200] },
  'POST /api/v1/auth/forgot-password': { body: () => ({ email: 'owner-a@example.com' }), expect: [200] },
  'POST /api/v1/auth/reset-password': { body: () => ({ token: 'x'.repeat(43), password: PASSWORD_B }), expect: [400] },
  'POST /api/v1/auth/reset-password/check': { body: () => ({ token: 'x'.repeat(43) }), expect: [400] },
  'POST /api/v1/auth/verify-email': { body: () => ({ token: `${'0'.repeat(36)}.9999999999.${'A'.repeat(43)}` }), expect: [400] },
  'POST /api/v1/auth/verification-email': { expect: [200] },
  'GET /api/v1/auth/providers': { expect: [200] },
  'POST /api/v1/auth/oidc/start': {
    body: () => ({
      provider: 'demo',
      state: 's'.repeat(43),
      nonce: 'n'.repeat(43),
      codeChallenge: 'c'.repeat(43),
      redirectUri: 'http://localhost:80/auth/callback',
    }),
    expect: [200, 400],
  },
  'POST /api/v1/auth/oidc/callback': {
    body: () => ({ provider: 'demo', code: 'c'.repeat(43), state: 's'.repeat(43), codeVerifier: 'v'.repeat(43) }),
    expect: [400, 401],
  },
  // Registered only when NODE_ENV=test (browser tests read reset links there); checked absent otherwise below.
  'GET /api/v1/auth/dev-outbox': { url: () => '/api/v1/auth/dev-outbox?to=bravo%40example.com', expect: [200] },
  'POST /api/v1/onboarding/provider-keys': { body: () => ({ mistral: 'bravo-mistral-key-123456' }), expect: [200] },
  'POST /api/v1/onboarding/complete': { body: () => ({ mode: 'hosted' }), expect: [200] },
  'GET /api/v1/observability/usage/current': { expect: [200] },
  'GET /api/v1/observability/metrics': { url: () => '/api/v1/observability/metrics?range=30d', expect: [200] },
  'GET /api/v1/observability/usage/activity': { expect: [200] },
  'GET /api/v1/observability/usage/export': { url: () => '/api/v1/observability/usage/export?range=30d', expect: [200] },
  'GET /api/v1/api-keys': { expect: [200] },
  'POST /api/v1/api-keys': { body: () => ({ name: 'bravo key', environment: 'test', permissions: ['api'] }), expect: [201] },
  'PATCH /api/v1/api-keys/:id': { url: (a) => `/api/v1/api-keys/${a.keyIds.live}`, body: () => ({ name: 'taken over' }), expect: [404] },
  'DELETE /api/v1/api-keys/:id': { url: (a) => `/api/v1/api-keys/${a.keyIds.live}`, expect: [404] },
  'GET /api/v1/billing': { expect: [200] },
  'POST /api/v1/billing/preview': { body: () => ({ plan: 'enterprise' }), expect: [200] },
  'POST /api/v1/billing/change-plan': { body: () => ({ plan: 'pro' }), expect: [200] },
  'POST /api/v1/billing/cancel': { expect: [200] },
  'POST /api/v1/billing/resume': { expect: [200] },
  'GET /api/v1/billing/invoices': { expect: [200] },
  'GET /api/v1/billing/invoices/:id/download': { url: (a) => `/api/v1/billing/invoices/${a.invoiceId}/download`, expect: [404] },
  'PATCH /api/v1/settings/profile': { body: (b) => ({ name: 'Bravo Renamed', email: b.email }), expect: [200] },
  'POST /api/v1/settings/password': {
    body: () => ({ currentPassword: PASSWORD_B, newPassword: PASSWORD_B, confirmPassword: PASSWORD_B }),
    expect: [200, 400],
  },
  'GET /api/v1/settings/sessions': { expect: [200] },
  'DELETE /api/v1/settings/sessions/:id': { url: (a) => `/api/v1/settings/sessions/${a.sessionIds[0]}`, expect: [404] },
  'POST /api/v1/settings/provider-keys/:provider': {
    url: () => '/api/v1/settings/provider-keys/openai',
    body: () => ({ key: 'sk-bravoOwnKey123456' }),
    expect: [200],
  },
  'DELETE /api/v1/settings/provider-keys/:provider': { url: () => '/api/v1/settings/provider-keys/openai', expect: [200] },
  'GET /api/v1/settings/routing': { expect: [200] },
  'PUT /api/v1/settings/routing': { body: () => ({ policy: { strategy: 'cost' } }), expect: [200] },
  'POST /api/v1/settings/delete-account': { body: () => ({ confirmation: 'DELETE', currentPassword: PASSWORD_B }), expect: [200] },
  'POST /api/v1/contact': {
    body: (b) => ({ name: 'Bravo', email: b.email, topic: 'other', message: 'A message from Bravo, long enough.' }),
    expect: [201],
  },
  'POST /api/v1/support/tickets': { multipart: true, expect: [201] },
  'GET /api/v1/support/tickets': { expect: [200] },
  'GET /api/v1/support/attachments/:id': { url: (a) => `/api/v1/support/attachments/${a.attachmentId}`, expect: [404] },
};

/** Last: B's destructive calls on its own account. */
const LAST = ['POST /api/v1/auth/logout', 'POST /api/v1/settings/delete-account'];

async function inject(
  app: FastifyInstance,
  method: string,
  url: string,
  options: { cookie?: string; authorization?: string; body?: unknown; form?: { body: Buffer; contentType: string } } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.authorization) headers.authorization = options.authorization;
  if (options.form) headers['content-type'] = options.form.contentType;
  return app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(options.form ? { payload: options.form.body } : options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

describe('access matrix: user A vs user B, API-only vs admin keys', () => {
  let harness: TestApp;
  let app: FastifyInstance;
  const catalog = routeCatalog();
  let a: Caller;
  let b: Caller;
  let owner: OwnerData;
  let before: string;

  const register = async (name: string, email: string, password: string): Promise<Caller> => {
    const response = await inject(app, 'POST', '/api/v1/auth/register', { body: { name, email, password } });
    expect(response.statusCode).toBe(201);
    const cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
    return { id: response.json().user.id, email, cookie };
  };
  const freshSession = async (caller: Caller) => {
    const session = await createSession(app.context.database.db, caller.id, { remember: false, now: Date.now() });
    return `${SESSION_COOKIE}=${session.token}`;
  };
  /** Everything A can see of its own data, to compare before and after B's calls. */
  const snapshotOfA = async () => {
    const read = async (url: string) => (await inject(app, 'GET', url, { cookie: a.cookie })).body;
    const me = JSON.parse(await read('/api/v1/auth/me'));
    const sessions = JSON.parse(await read('/api/v1/settings/sessions'))
      .sessions.map((session: { id: string }) => session.id)
      .sort();
    const keys = JSON.parse(await read('/api/v1/api-keys')).keys.map((key: { id: string; name: string; status: string }) => [
      key.id,
      key.name,
      key.status,
    ]);
    return JSON.stringify({
      user: { name: me.user.name, email: me.user.email, plan: me.user.plan, providerKeys: me.user.apiKeys },
      sessions,
      keys,
      invoices: JSON.parse(await read('/api/v1/billing/invoices')).invoices.map((invoice: { id: string }) => invoice.id),
      tickets: JSON.parse(await read('/api/v1/support/tickets')).tickets.map((ticket: { id: string; subject: string }) => [
        ticket.id,
        ticket.subject,
      ]),
      activity: JSON.parse(await read('/api/v1/observability/usage/activity')).items.length,
      billing: JSON.parse(await read('/api/v1/billing')).cancelAtPeriodEnd,
      routing: JSON.parse(await read('/api/v1/settings/routing')).policy,
    });
  };

  beforeAll(async () => {
    harness = await createTestApp({}, { onRoute: catalog.onRoute });
    app = harness.app;
    a = await register('Alice Matrix Owner', 'owner-a@example.com', PASSWORD_A);
    const second = await inject(app, 'POST', '/api/v1/auth/login', { body: { email: a.email, password: PASSWORD_A } });
    const secondCookie = String(second.headers['set-cookie']).split(';')[0] ?? '';
    // With its free trial spent, the move to Pro is invoiced at once: A owns an invoice.
    await spendTrial(app.context.database.db, a.id, app.context.clock.now());
    expect((await inject(app, 'POST', '/api/v1/billing/change-plan', { cookie: a.cookie, body: { plan: 'pro' } })).statusCode).toBe(200);
    const createKey = async (name: string, environment: string, permissions: string[]) =>
      (await inject(app, 'POST', '/api/v1/api-keys', { cookie: a.cookie, body: { name, environment, permissions } })).json() as {
        key: string;
        apiKey: { id: string; masked: string };
      };
    const created = {
      test: await createKey('alice-test-key', 'test', ['api']),
      live: await createKey('alice-live-key', 'live', ['api']),
      admin: await createKey('alice-admin-only', 'test', ['api', 'admin']),
      both: await createKey('alice-api-and-admin', 'test', ['api', 'admin']),
    };
    // A key without API Access can no longer be created (400), but one made before that rule exists.
    expect(created.admin.apiKey.id).toBeTruthy();
    await app.context.database.db
      .update(apiKeys)
      .set({ permissions: ['admin'] })
      .where(eq(apiKeys.id, created.admin.apiKey.id));
    const ticket = (
      await inject(app, 'POST', '/api/v1/support/tickets', { cookie: a.cookie, form: ticketForm('alice private ticket subject') })
    ).json().ticket as { id: string; attachments: { id: string }[] };
    expect(
      (await inject(app, 'POST', '/api/v1/settings/provider-keys/openai', { cookie: a.cookie, body: { key: 'sk-aliceOwnOpenAiKey9876' } }))
        .statusCode,
    ).toBe(200);
    const routing = { strategy: 'fallback', targets: ['gpt-4o', 'gpt-4o-mini'].map((model) => ({ provider: 'openai', model })) };
    expect((await inject(app, 'PUT', '/api/v1/settings/routing', { cookie: a.cookie, body: { policy: routing } })).statusCode).toBe(200);
    const calls: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await inject(app, 'POST', '/v1/chat/completions', {
        authorization: `Bearer ${created.test.key}`,
        body: { model: 'gpt-4o-mini', messages },
      });
      expect(response.statusCode).toBe(200);
      calls.push(String(response.headers['x-request-id']));
    }
    await app.gateway.meter.flush();
    const invoices = (await inject(app, 'GET', '/api/v1/billing/invoices', { cookie: a.cookie })).json().invoices as {
      id: string;
      number: string;
    }[];
    const sessions = (await inject(app, 'GET', '/api/v1/settings/sessions', { cookie: a.cookie })).json().sessions as { id: string }[];
    const me = (await inject(app, 'GET', '/api/v1/auth/me', { cookie: a.cookie })).json().user as { apiKeys: { masked: string }[] };
    expect(invoices.length).toBeGreaterThan(0);
    expect(sessions).toHaveLength(2);
    owner = {
      keyIds: { test: created.test.apiKey.id, live: created.live.apiKey.id, admin: created.admin.apiKey.id, both: created.both.apiKey.id },
      keys: { test: created.test.key, live: created.live.key, admin: created.admin.key, both: created.both.key },
      invoiceId: invoices[0]?.id ?? '',
      ticketId: ticket.id,
      attachmentId: ticket.attachments[0]?.id ?? '',
      sessionIds: sessions.map((session) => session.id),
      cookies: [a.cookie, secondCookie],
      markers: [
        a.id,
        a.email,
        'Alice Matrix Owner',
        ...Object.values(created).flatMap((entry) => [entry.apiKey.id, entry.apiKey.masked, entry.key]),
        'alice-test-key',
        'alice-live-key',
        ...invoices.flatMap((invoice) => [invoice.id, invoice.number]),
        ticket.id,
        'alice private ticket subject',
        ...ticket.attachments.map((attachment) => attachment.id),
        ...sessions.map((session) => session.id),
        ...me.apiKeys.map((key) => key.masked),
        ...calls,
      ],
    };
    b = await register('Bravo Other', 'bravo@example.com', PASSWORD_B);
    // B's address is confirmed (its link is tested elsewhere), so its own move to a paid plan is a free trial, answered 200.
    await app.context.database.db.update(users).set({ verified: true }).where(eq(users.id, b.id));
    before = await snapshotOfA();
  });
  afterAll(async () => harness?.close());

  it('has a row for every /api/v1 route of the app', () => {
    const portal = catalog.routes.filter((route) => route.url.startsWith('/api/v1/')).map((route) => `${route.method} ${route.url}`);
    expect(portal.length).toBeGreaterThan(30);
    expect([...portal].sort(), 'add the new route to MATRIX in access-matrix.test.ts').toEqual(Object.keys(MATRIX).sort());
  });

  it('B never reads nor changes A’s data through any /api/v1 route', async () => {
    const routes = catalog.routes.filter((route) => route.url.startsWith('/api/v1/'));
    const ordered = [...routes.filter((route) => !LAST.includes(key(route))), ...routes.filter((route) => LAST.includes(key(route)))];
    const problems: string[] = [];
    for (const route of ordered) {
      const entry = MATRIX[key(route)];
      if (!entry) continue; // reported by the coverage test
      const url = entry.url ? entry.url(owner) : route.url;
      const response = await inject(app, route.method, url, {
        cookie: await freshSession(b),
        ...(entry.multipart ? { form: ticketForm('bravo own ticket') } : {}),
        ...(entry.body ? { body: entry.body(b) } : route.method !== 'GET' && !entry.multipart ? { body: {} } : {}),
      });
      if (!entry.expect.includes(response.statusCode))
        problems.push(`${key(route)} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
      const leaked = owner.markers.filter((marker) => marker && response.body.includes(marker));
      const headers = JSON.stringify(response.headers);
      leaked.push(...owner.markers.filter((marker) => marker && headers.includes(marker)));
      if (leaked.length > 0) problems.push(`${key(route)} shows A's ${leaked.join(', ')}`);
    }
    expect(problems).toEqual([]);
    // B's own usage is empty: A's requests are not counted for B.
    const c = await register('Carol Fresh', 'carol@example.com', PASSWORD_B);
    const usage = (await inject(app, 'GET', '/api/v1/observability/usage/current', { cookie: c.cookie })).json();
    expect(usage).toMatchObject({ requestsToday: 0 });
    expect((await snapshotOfA()).toString()).toBe(before);
    for (const cookie of owner.cookies) expect((await inject(app, 'GET', '/api/v1/auth/me', { cookie })).statusCode).toBe(200);
  });

  it('the test-only outbox route does not exist outside NODE_ENV=test', async () => {
    const outbox = catalog.routes.find((route) => route.url.includes('outbox'));
    expect(outbox, 'the development outbox route').toBeDefined();
    const url = `${outbox?.url}?to=owner-a%40example.com`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const development = await createTestApp({ NODE_ENV: 'development' });
    try {
      const response = await development.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    } finally {
      await development.close();
    }
  });

  it('on /v1, API keys act by permission; sessions and keys never cross surfaces', async () => {
    const gatewayRoutes = catalog.routes.filter((route) => route.url.startsWith('/v1/'));
    const protectedRoutes: CatalogRoute[] = [];
    for (const route of gatewayRoutes) {
      const anonymous = await inject(app, route.method, concrete(route), gatewayBody(route));
      if (anonymous.statusCode === 401) protectedRoutes.push(route);
    }
    expect(protectedRoutes.map(key).sort()).toEqual([
      'GET /v1/models',
      'GET /v1/models/:model',
      'GET /v1/providers',
      'POST /v1/chat/completions',
    ]);
    for (const route of protectedRoutes) {
      const call = async (credentials: { authorization?: string; cookie?: string }) =>
        inject(app, route.method, concrete(route), { ...gatewayBody(route), ...credentials });
      expect((await call({ authorization: `Bearer ${owner.keys.test}` })).statusCode, `${key(route)} with an API key`).toBe(200);
      expect((await call({ authorization: `Bearer ${owner.keys.both}` })).statusCode, `${key(route)} with API + admin`).toBe(200);
      const adminOnly = await call({ authorization: `Bearer ${owner.keys.admin}` });
      expect(adminOnly.statusCode, `${key(route)} with an admin-only key`).toBe(403);
      expect(adminOnly.json().error).toMatchObject({ type: 'permission_error', code: 'insufficient_permissions' });
      expect((await call({ cookie: a.cookie })).statusCode, `${key(route)} with a session cookie`).toBe(401);
    }
    // API keys (admin ones included) are no portal credential.
    const portalReads = catalog.routes.filter(
      (route) => route.method === 'GET' && route.url.startsWith('/api/v1/') && !route.url.includes(':'),
    );
    for (const route of portalReads) {
      const url = `${route.url}${route.url.includes('observability/metrics') || route.url.includes('export') ? '?range=7d' : ''}`;
      const anonymous = await inject(app, 'GET', url);
      const withKey = await inject(app, 'GET', url, { authorization: `Bearer ${owner.keys.both}` });
      expect(withKey.statusCode, `${route.url} with an admin key`).toBe(anonymous.statusCode);
      expect(
        owner.markers.filter((marker) => withKey.body.includes(marker)),
        `${route.url} with an admin key`,
      ).toEqual([]);
    }
    // What the gateway tells a key is about its own account: another account's key does not see A's own provider key.
    const dana = await register('Dana Gateway', 'dana@example.com', PASSWORD_B);
    const danaKey = (
      await inject(app, 'POST', '/api/v1/api-keys', {
        cookie: dana.cookie,
        body: { name: 'dana', environment: 'live', permissions: ['api'] },
      })
    ).json().key as string;
    const providersFor = async (apiKey: string) =>
      (
        (await inject(app, 'GET', '/v1/providers', { authorization: `Bearer ${apiKey}` })).json().data as {
          id: string;
          key_source: string | null;
        }[]
      ).find((provider) => provider.id === 'openai');
    expect((await providersFor(owner.keys.live))?.key_source).toBe('byok');
    expect((await providersFor(danaKey))?.key_source).toBeNull();
  });
});

function key(route: CatalogRoute): string {
  return `${route.method} ${route.url}`;
}

function concrete(route: CatalogRoute): string {
  return route.url.replace(':model', 'gpt-4o-mini');
}

function gatewayBody(route: CatalogRoute): { body?: unknown } {
  return route.method === 'POST' && route.url === '/v1/chat/completions'
    ? { body: { model: 'gpt-4o-mini', messages } }
    : route.method === 'POST'
      ? { body: {} }
      : {};
}
