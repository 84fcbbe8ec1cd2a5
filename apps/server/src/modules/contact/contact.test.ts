import { CONTACT_MESSAGES } from '@conductor/shared/schemas/contact';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { supportTickets } from '../../db/schema/index.ts';
import { readOutbox } from '../../lib/mailer.ts';

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => harness.close());

const message = {
  name: 'Lin Okafor',
  email: 'lin@acme.example',
  company: 'Acme Robotics',
  topic: 'sales',
  message: 'We route about 40M tokens a month and would like to talk about Enterprise and an SLA.',
};

const send = (payload: unknown, headers: Record<string, string> = {}, remoteAddress = '203.0.113.10') =>
  harness.app.inject({ method: 'POST', url: '/api/v1/contact', payload: payload as object, headers, remoteAddress });

describe('POST /api/v1/contact', () => {
  it('stores the message as a contact ticket and e-mails a confirmation with its reference', async () => {
    const response = await send(message);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ message: CONTACT_MESSAGES.success, reference: expect.stringMatching(/^C-\d+$/) });
    const [row] = await harness.app.context.database.db.select().from(supportTickets).where(eq(supportTickets.id, body.id));
    expect(row).toMatchObject({
      channel: 'contact',
      category: 'sales',
      email: 'lin@acme.example',
      name: 'Lin Okafor',
      subject: 'Sales and Enterprise plans (Acme Robotics)',
      description: message.message,
      userId: null,
      status: 'open',
    });
    const [mail] = await readOutbox(harness.app.context, 'lin@acme.example', 'contact_confirmation');
    expect(mail?.subject).toBe(`We received your message [${body.reference}]`);
    expect(mail?.text).toContain(`reference ${body.reference}`);
    // Nothing the sender typed goes to the address they claim (it is not verified).
    expect(mail?.text).not.toContain('40M tokens');
    expect(mail?.text).not.toContain('Lin Okafor');
  });

  it('links the message to the signed-in account', async () => {
    const { user, cookie } = await createUserWithSession(harness.app);
    const response = await send({ ...message, email: user.email }, { cookie }, '203.0.113.11');
    expect(response.statusCode).toBe(201);
    const [row] = await harness.app.context.database.db.select().from(supportTickets).where(eq(supportTickets.id, response.json().id));
    expect(row?.userId).toBe(user.id);
  });

  it('refuses invalid fields with the form messages', async () => {
    const response = await send({ ...message, message: 'too short', topic: 'nope' }, {}, '203.0.113.12');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toMatchObject({
      message: CONTACT_MESSAGES.messageTooShort,
      topic: CONTACT_MESSAGES.topicRequired,
    });
  });

  it('refuses a NUL character with a 400 naming the field, not a database error', async () => {
    const response = await send({ ...message, company: 'A\u0000B', message: `${message.message}\u0000` }, {}, '203.0.113.13');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toMatchObject({
      company: 'Company must not contain control characters',
      message: 'Message must not contain control characters',
    });
  });

  it('refuses a cross-site submission', async () => {
    const response = await send(message, { origin: 'https://evil.example' }, '203.0.113.13');
    expect(response.statusCode).toBe(403);
  });

  it('limits messages per IP address', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 12; index += 1) statuses.push((await send(message, {}, '198.51.100.1')).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('counts the addresses of one IPv6 /64 as one sender', async () => {
    // Invalid bodies: the limit counts before validation, and nothing is stored.
    const statuses: number[] = [];
    for (let index = 1; index <= 11; index += 1) statuses.push((await send({}, {}, `2001:db8:c0:1::${index.toString(16)}`)).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await send({}, {}, '2001:db8:c0:2::1')).statusCode).toBe(400);
  });

  it('mails at most 3 confirmations an hour to one address, whatever its case, but stores every message', async () => {
    const addresses = ['flooded@victim.example', 'Flooded@Victim.example', 'flooded@victim.example', 'FLOODED@VICTIM.EXAMPLE'];
    const references: string[] = [];
    for (const [index, email] of addresses.entries()) {
      const response = await send({ ...message, email }, {}, `203.0.113.${30 + index}`);
      expect(response.statusCode).toBe(201);
      references.push(response.json().reference);
    }
    const rows = await harness.app.context.database.db.select().from(supportTickets).where(eq(supportTickets.name, message.name));
    expect(rows.filter((row) => row.email.toLowerCase() === 'flooded@victim.example')).toHaveLength(4);
    const mailed = await Promise.all(
      ['flooded@victim.example', 'Flooded@Victim.example', 'FLOODED@VICTIM.EXAMPLE'].map((to) =>
        readOutbox(harness.app.context, to, 'contact_confirmation'),
      ),
    );
    expect(mailed.map((mails) => mails.length)).toEqual([2, 1, 0]);
    expect(references).toHaveLength(4);
  });
});
