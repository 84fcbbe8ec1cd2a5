import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSmtp, fakeSmtp } from '../../../test/fake-smtp.ts';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { outboxEmails, supportTickets, users } from '../../db/schema/index.ts';
import { readOutbox, smtpUrlWithTimeouts } from '../../lib/mailer.ts';
// nodemailer's own parser of SMTP_URL (what createTransport runs on it).
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import { hashPassword } from '../../lib/password.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';

/** The outbox rows of one kind sent to an address (the project's outbox reader). */
const outboxOf = (harness: TestApp, to: string, kind: string) => readOutbox(harness.app.context, to, kind);

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
  const undelivered = (to: string, kind: string) => outboxOf(harness, to, kind);

  it('a support ticket is saved and answered 201 once, its confirmation logged as undelivered and queued to be tried again', async () => {
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
    await harness.app.context.mailer.drain();
    const [mail] = await undelivered('ada-undelivered@example.com', 'support_ticket');
    expect(mail?.sentAt).toBeNull();
    // Queued to be tried again a minute after the failure (mailer-redelivery.test.ts follows it from there).
    expect(mail?.pendingBody).toBeInstanceOf(Buffer);
    const wait = (mail?.nextAttemptAt?.getTime() ?? 0) - (mail?.createdAt.getTime() ?? 0);
    expect(wait).toBeGreaterThanOrEqual(60_000);
    expect(wait).toBeLessThan(90_000); // not the first attempt's 2-minute claim
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
    await harness.app.context.mailer.drain();
    const [mail] = await undelivered(user.email, 'email_changed');
    expect(mail?.sentAt).toBeNull();
  });
});

const ticketForm = (email: string, subject: string) => {
  const form = new FormData();
  for (const [key, value] of Object.entries({
    subject,
    priority: 'low',
    category: 'other',
    description: 'Checking how the confirmation goes out.',
    name: 'Ada Visitor',
    email,
  }))
    form.append(key, value);
  return form;
};

describe('notices over SMTP', () => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await fakeSmtp();
  });
  afterAll(async () => smtp?.close());

  /** A ticket sent while the SMTP server holds its greeting: answered 201, its confirmation stored, unsent, on a connection. */
  async function ticketWhileHeld(harness: TestApp, email: string, subject: string) {
    smtp.hold();
    const response = await harness.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: ticketForm(email, subject) });
    expect(response.statusCode).toBe(201);
    const [mail] = await outboxOf(harness, email, 'support_ticket');
    expect(mail?.sentAt).toBeNull();
    await expect.poll(() => smtp.sockets.size).toBeGreaterThan(0);
    return { mail: mail!, subjectLine: `Subject: [Conductor Support] Ticket #${response.json().ticket.number} received` };
  }

  it('answer first, deliver after: the ticket is answered 201 while the server has not even greeted, then the mail goes out', async () => {
    const harness = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const { mail, subjectLine } = await ticketWhileHeld(harness, 'ada-held@example.com', 'Held mail');
      smtp.release();
      await harness.app.context.mailer.drain();
      const db = harness.app.context.database.db;
      expect((await db.select().from(outboxEmails).where(eq(outboxEmails.id, mail.id)))[0]?.sentAt).toBeInstanceOf(Date);
      expect(smtp.lines).toContain(subjectLine);
    } finally {
      smtp.release();
      await harness.close();
    }
  });

  it('closing the app waits for a delivery in flight before the database closes', async () => {
    const harness = await createTestApp({ SMTP_URL: smtp.url });
    const before = smtp.lines.length;
    const { subjectLine } = await ticketWhileHeld(harness, 'ada-closing@example.com', 'Mail at shutdown');
    let closed = false;
    const closing = harness.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);
    smtp.release();
    await closing;
    expect(smtp.lines.slice(before)).toContain(subjectLine);
  });

  it('gives up on a server that stays silent once the deadline passes', async () => {
    const harness = await createTestApp({ SMTP_URL: smtp.url });
    try {
      await ticketWhileHeld(harness, 'ada-silent@example.com', 'Silent server');
      await harness.app.context.mailer.drain(100);
      const [mail] = await outboxOf(harness, 'ada-silent@example.com', 'support_ticket');
      expect(mail?.sentAt).toBeNull();
    } finally {
      smtp.release();
      await harness.close();
    }
  });
});

describe('smtpUrlWithTimeouts', () => {
  it('adds the DNS, connection, greeting and socket time-outs as nodemailer reads them, keeping credentials and any time-out the URL sets', () => {
    const options = parseConnectionUrl(smtpUrlWithTimeouts('smtps://mailer:p%40ss@smtp.example.com:465?socketTimeout=5000'));
    expect(options).toMatchObject({
      secure: true,
      host: 'smtp.example.com',
      port: 465,
      auth: { user: 'mailer', pass: 'p@ss' },
      dnsTimeout: 10_000,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 5_000,
    });
  });
});
