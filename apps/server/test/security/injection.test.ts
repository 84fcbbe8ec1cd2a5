/**
 * SQL-injection and XSS payloads in every free-text field (registration, profile, API key
 * names, support tickets and their attachment names, the contact form, the waitlist) are
 * stored verbatim, come back unchanged as JSON (application/json, nosniff), are escaped where
 * the server renders HTML (the invoice), and leave every table intact. Fields whose format
 * rules forbid such characters (e-mail addresses, ids, query values) refuse them with a 4xx.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, supportTickets, ticketAttachments, users, waitlistEntries } from '../../src/db/schema/index.ts';
import { rows, tableCounts } from '../fault/integrity.ts';
import { multipart, multipartName, PNG_1X1 } from '../fault/http-client.ts';
import { spendTrial } from '../../src/modules/portal/portal-testing.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

const SQL_PAYLOADS = [
  "Robert'); DROP TABLE users;--",
  "' OR '1'='1' --",
  '1; SELECT pg_sleep(5); --',
  '"; DELETE FROM api_keys; --',
  "x' UNION SELECT password_hash FROM users --",
  "$1 $$ E'\\x27' ::text",
];
const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "<svg/onload=alert('x')>",
  'javascript:alert(document.cookie)',
  '{{constructor.constructor("alert(1)")()}}',
  '</textarea><iframe srcdoc="<script>alert(1)</script>">',
];
/**
 * Every payload, padded where a field needs a minimum length. Right-to-left text round-trips; the
 * invisible direction overrides (U+202E and kin) are refused in names (text-fields.test.ts).
 */
const PAYLOADS = [...SQL_PAYLOADS, ...XSS_PAYLOADS, 'Zoë 😀 שלום'];
const PASSWORD = 'Inert-Payload-Pass-81';

function expectInertJson(response: LightMyRequestResponse): void {
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

describe('injection payloads are stored verbatim and returned inert', () => {
  let harness: TestApp;
  let app: FastifyInstance;
  let cookie: string;
  let userId: string;
  let email: string;

  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { cookie, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    harness = await createTestApp();
    app = harness.app;
    email = 'payloads@example.com';
    const registered = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Payload Owner', email, password: PASSWORD },
    });
    expect(registered.statusCode).toBe(201);
    cookie = String(registered.headers['set-cookie']).split(';')[0] ?? '';
    userId = registered.json().user.id;
  });
  afterAll(async () => harness?.close());

  it('registration names', async () => {
    for (const [index, payload] of PAYLOADS.entries()) {
      const address = `register-${index}@example.com`;
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { name: payload, email: address, password: PASSWORD },
      });
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(response.statusCode, payload).toBe(201);
      expectInertJson(response);
      expect(response.json().user.name).toBe(payload.trim());
      const [row] = await app.context.database.db.select({ name: users.name }).from(users).where(eq(users.email, address));
      expect(row?.name).toBe(payload.trim());
    }
  });

  it('profile name', async () => {
    for (const payload of PAYLOADS) {
      const response = await call('PATCH', '/api/v1/settings/profile', { name: payload, email });
      expect(response.statusCode, payload).toBe(200);
      expectInertJson(response);
      expect(response.json().user.name).toBe(payload.trim());
      const [row] = await app.context.database.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
      expect(row?.name).toBe(payload.trim());
      const me = await call('GET', '/api/v1/auth/me');
      expect(me.json().user.name).toBe(payload.trim());
    }
  });

  it('the invoice, the one HTML page built from user text, escapes the name', async () => {
    const name = '<script>alert(1)</script> & "quotes"';
    expect((await call('PATCH', '/api/v1/settings/profile', { name, email })).statusCode).toBe(200);
    // With its free trial spent, the move to Pro is invoiced at once.
    await spendTrial(app.context.database.db, userId, app.context.clock.now());
    expect((await call('POST', '/api/v1/billing/change-plan', { plan: 'pro' })).statusCode).toBe(200);
    const [invoice] = (await call('GET', '/api/v1/billing/invoices')).json().invoices as { id: string }[];
    const html = await call('GET', `/api/v1/billing/invoices/${invoice?.id}/download`);
    expect(html.statusCode).toBe(200);
    expect(String(html.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(html.body).not.toContain('<script>alert(1)</script>');
    expect(html.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
  });

  it('API key names (create and rename)', async () => {
    for (const payload of PAYLOADS) {
      const created = await call('POST', '/api/v1/api-keys', { name: payload, environment: 'test', permissions: ['api'] });
      expect(created.statusCode, payload).toBe(201);
      expectInertJson(created);
      const { id } = created.json().apiKey as { id: string };
      expect(created.json().apiKey.name).toBe(payload.trim());
      const renamed = await call('PATCH', `/api/v1/api-keys/${id}`, { name: `${payload} (renamed)` });
      expect(renamed.statusCode).toBe(200);
      const [row] = await app.context.database.db.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, id));
      expect(row?.name).toBe(`${payload.trim()} (renamed)`);
      expect((await call('DELETE', `/api/v1/api-keys/${id}`)).statusCode).toBe(200);
    }
    const listed = (await call('GET', '/api/v1/api-keys')).json().keys as { name: string }[];
    expect(listed.map((key) => key.name)).toEqual(expect.arrayContaining(PAYLOADS.map((payload) => `${payload.trim()} (renamed)`)));
  });

  it('support tickets (signed out, every text field) and attachment names', async () => {
    for (const [index, payload] of PAYLOADS.entries()) {
      // As a browser sends it: no path separators in a file name, quotes escaped in the part header.
      const filename = `${payload.replace(/[/\\]/g, '')}.png`;
      const storedName = multipartName(filename).trim();
      const form = multipart(
        {
          subject: payload,
          priority: 'high',
          category: 'technical',
          description: `${payload}\n${payload}`,
          name: payload,
          email: `ticket-${index}@example.com`,
        },
        [{ field: 'attachments', filename, contentType: 'image/png', data: PNG_1X1 }],
      );
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/support/tickets',
        headers: { 'content-type': form.contentType },
        payload: form.body,
        remoteAddress: `10.9.${index}.1`,
      });
      expect(response.statusCode, `${payload}: ${response.body}`).toBe(201);
      expectInertJson(response);
      const ticket = response.json().ticket as { id: string; subject: string; description: string; attachments: { filename: string }[] };
      expect(ticket.subject).toBe(payload.trim());
      expect(ticket.description).toBe(`${payload}\n${payload}`.trim());
      expect(ticket.attachments[0]?.filename).toBe(storedName);
      const [row] = await app.context.database.db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
      expect([row?.subject, row?.description, row?.name]).toEqual([payload.trim(), `${payload}\n${payload}`.trim(), payload.trim()]);
      const [attachment] = await app.context.database.db.select().from(ticketAttachments).where(eq(ticketAttachments.ticketId, ticket.id));
      expect(attachment?.filename).toBe(storedName);
    }
  });

  it('attachment downloads name the file in a header that cannot be broken out of', async () => {
    const filename = "x'><img src=x onerror=alert(1)>; filename*=UTF-8''evil.html; Set-Cookie: x=1.png";
    const form = multipart({ subject: 'header check', priority: 'low', category: 'other', description: 'header check' }, [
      { field: 'attachments', filename, contentType: 'image/png', data: PNG_1X1 },
    ]);
    const created = await call('POST', '/api/v1/support/tickets', form.body, { 'content-type': form.contentType });
    expect(created.statusCode).toBe(201);
    const attachment = created.json().ticket.attachments[0] as { id: string; filename: string };
    expect(attachment.filename).toBe(filename);
    const attachmentId = attachment.id;
    const download = await call('GET', `/api/v1/support/attachments/${attachmentId}`);
    expect(download.statusCode).toBe(200);
    const disposition = String(download.headers['content-disposition']);
    // An ASCII fallback, then the exact name percent-encoded (RFC 5987 attr-chars only).
    expect(disposition).toMatch(/^attachment; filename="[^"<>;]*"; filename\*=UTF-8''[\w!#$&+.^`|~%-]*$/);
    expect(download.headers['set-cookie']).toBeUndefined();
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the contact form', async () => {
    for (const [index, payload] of PAYLOADS.entries()) {
      const message = `${payload} — padded to the minimum length of a message.`;
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/contact',
        payload: {
          name: payload.length >= 2 ? payload : `${payload}!!`,
          email: `contact-${index}@example.com`,
          company: payload,
          topic: 'other',
          message,
        },
        remoteAddress: `10.8.${index}.1`,
      });
      expect(response.statusCode, `${payload}: ${response.body}`).toBe(201);
      expectInertJson(response);
      const [row] = await app.context.database.db.select().from(supportTickets).where(eq(supportTickets.id, response.json().id));
      expect(row?.description).toBe(message.trim());
      expect(row?.subject).toContain(payload.trim());
    }
  });

  it('waitlist addresses: stored as normalised, or refused by the address rule', async () => {
    const candidates = ['<script>alert(1)</script>@evil.example', "x'or'1'='1@example.com", 'a";drop-table@x.io'];
    for (const [index, candidate] of candidates.entries()) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/waitlist',
        payload: { email: candidate, source: 'footer' },
        remoteAddress: `10.7.${index}.1`,
      });
      expect(response.statusCode, candidate).toBe(201);
      expectInertJson(response);
      const stored = await app.context.database.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, candidate.toLowerCase()));
      expect(stored).toHaveLength(1);
    }
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/waitlist',
      payload: { email: "a b'; DROP TABLE waitlist_entries;--@x.io", source: 'footer' },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('refuses payloads in e-mail fields, ids and query values with a 4xx (never a 5xx)', async () => {
    const probes: [string, string, unknown?][] = [];
    for (const payload of [...SQL_PAYLOADS, ...XSS_PAYLOADS]) {
      probes.push(['POST', '/api/v1/auth/login', { email: payload, password: 'whatever-123' }]);
      probes.push(['POST', '/api/v1/auth/register', { name: 'Valid Name', email: `${payload}@example.com`, password: PASSWORD }]);
      probes.push(['PATCH', '/api/v1/settings/profile', { name: 'Valid Name', email: payload }]);
      probes.push(['GET', `/api/v1/observability/metrics?range=${encodeURIComponent(payload)}`]);
      probes.push(['GET', `/api/v1/observability/usage/activity?limit=${encodeURIComponent(payload)}`]);
      probes.push(['PATCH', `/api/v1/api-keys/${encodeURIComponent(payload)}`, { name: 'x' }]);
      probes.push(['GET', `/api/v1/billing/invoices/${encodeURIComponent(payload)}/download`]);
      probes.push(['DELETE', `/api/v1/settings/sessions/${encodeURIComponent(payload)}`]);
      probes.push(['GET', `/api/v1/support/attachments/${encodeURIComponent(payload)}`]);
    }
    const problems: string[] = [];
    for (const [method, url, payload] of probes) {
      const started = performance.now();
      const response = await call(method, url, payload);
      if (response.statusCode < 400 || response.statusCode >= 500) problems.push(`${method} ${url} -> ${response.statusCode}`);
      if (performance.now() - started > 2_000) problems.push(`${method} ${url} took ${Math.round(performance.now() - started)} ms`);
    }
    expect(problems).toEqual([]);
    // A wrong password that looks like SQL is just a wrong password.
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: "' OR '1'='1" } });
    expect(login.statusCode).toBe(401);
  });

  it('leaves every table in place, with the rows the tests wrote', async () => {
    const counts = await tableCounts(app.context.database.db);
    for (const table of [
      'users',
      'sessions',
      'api_keys',
      'support_tickets',
      'ticket_attachments',
      'waitlist_entries',
      'invoices',
      'usage_events',
    ]) {
      expect(counts[table], table).toBeGreaterThanOrEqual(0);
    }
    expect(counts.users).toBe(1 + PAYLOADS.length);
    expect(counts.api_keys).toBe(PAYLOADS.length);
    expect(counts.waitlist_entries).toBe(3);
    const [withPassword] = await rows<{ count: number }>(
      app.context.database.db,
      sql`select count(*)::int as count from users where password_hash is not null`,
    );
    expect(withPassword?.count).toBe(1 + PAYLOADS.length);
  });
});
