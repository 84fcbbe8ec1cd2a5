import { once } from 'node:events';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { outboxEmails, supportTickets, users } from '../../db/schema/index.ts';
import { smtpUrlWithTimeouts } from '../../lib/mailer.ts';
import { hashPassword } from '../../lib/password.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';

/**
 * A confirmation or notice that cannot be delivered (the SMTP server refuses connections) does
 * not turn what was saved into an error: the user would send it again, and it would be saved twice.
 */
describe('e-mail that cannot be delivered', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
  });
  afterAll(async () => harness?.close());

  const db = () => harness.app.context.database.db;
  const undelivered = async (to: string, kind: string) =>
    (await db().select().from(outboxEmails).where(eq(outboxEmails.to, to))).filter((mail) => mail.kind === kind);

  it('a support ticket is saved and answered 201 once, its confirmation logged as undelivered', async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      subject: 'Streaming stops early',
      priority: 'high',
      category: 'technical',
      description: 'The stream ends after 3 chunks.',
      name: 'Ada Visitor',
      email: 'ada-undelivered@example.com',
    }))
      form.append(key, value);
    const response = await harness.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: form });
    expect(response.statusCode).toBe(201);
    const rows = await db().select().from(supportTickets).where(eq(supportTickets.email, 'ada-undelivered@example.com'));
    expect(rows).toHaveLength(1);
    const [mail] = await undelivered('ada-undelivered@example.com', 'support_ticket');
    expect(mail?.sentAt).toBeNull();
  });

  it('an e-mail change is saved and answered 200, though the notice to the old address could not go out', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    const email = `moved-${Math.random().toString(36).slice(2, 8)}@example.org`;
    const response = await harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings/profile',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify({ name: user.name, email, currentPassword: 'Current-Passw0rd' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email, verified: false });
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]?.email).toBe(email);
    const [mail] = await undelivered(user.email, 'email_changed');
    expect(mail?.sentAt).toBeNull();
  });
});

/**
 * An SMTP server that accepts the connection and then says nothing: the request that sends a
 * notice answers without waiting for it (the exchange runs after the notice is stored), and
 * closing the app waits for that exchange to end before the database closes.
 */
describe('a stalled SMTP server', () => {
  let harness: TestApp;
  let smtp: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    smtp = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp, 'listening');
    const { port } = smtp.address() as net.AddressInfo;
    harness = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await harness?.close();
    smtp?.close();
  });

  it('holds no request: the ticket is answered 201 while the server has not even greeted', async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      subject: 'Stalled mail',
      priority: 'low',
      category: 'other',
      description: 'Checking the confirmation does not hold the request.',
      name: 'Ada Visitor',
      email: 'ada-stalled@example.com',
    }))
      form.append(key, value);
    const response = await harness.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: form });
    expect(response.statusCode).toBe(201);
    // The confirmation is in the outbox, not sent: the server is still silent on its connection.
    const [mail] = (
      await harness.app.context.database.db.select().from(outboxEmails).where(eq(outboxEmails.to, 'ada-stalled@example.com'))
    ).filter((row) => row.kind === 'support_ticket');
    expect(mail?.sentAt).toBeNull();
    await expect.poll(() => sockets.size).toBeGreaterThan(0);
    // The server hangs up: the delivery fails, is logged, and the app closes without waiting for a time-out.
    for (const socket of sockets) socket.destroy();
    await harness.app.context.mailer.drain();
    expect((await harness.app.context.database.db.select().from(outboxEmails).where(eq(outboxEmails.id, mail!.id)))[0]?.sentAt).toBeNull();
  });
});

describe('smtpUrlWithTimeouts', () => {
  it('adds the connection, greeting and socket time-outs, keeping credentials and any time-out the URL sets', () => {
    const url = new URL(smtpUrlWithTimeouts('smtps://mailer:p%40ss@smtp.example.com:465?socketTimeout=5000'));
    expect(url.protocol).toBe('smtps:');
    expect(url.username).toBe('mailer');
    expect(url.password).toBe('p%40ss');
    expect(url.host).toBe('smtp.example.com:465');
    expect(url.searchParams.get('connectionTimeout')).toBe('10000');
    expect(url.searchParams.get('greetingTimeout')).toBe('10000');
    expect(url.searchParams.get('socketTimeout')).toBe('5000');
  });
});
