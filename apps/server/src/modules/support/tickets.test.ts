import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES, TICKET_MESSAGES, TICKET_SENDER_HEADER } from '@conductor/shared/schemas/support';
import { TICKETS_PER_HOUR } from './ticket-rate-limit.ts';
import { supportTickets, ticketAttachments } from '../../db/schema/index.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

function ticketForm(fields: Record<string, string>, files: { name: string; data: Buffer; type?: string }[] = []): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('attachments', new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.name);
  return form;
}

const VALID = { subject: 'Streaming stops early', priority: 'high', category: 'technical', description: 'The stream ends after 3 chunks.' };

describe('support tickets', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(async () => test.close());

  const post = (form: FormData, cookie?: string) =>
    test.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: form, headers: cookie ? { cookie } : {} });

  it('stores a visitor ticket with its attachments and e-mails the ticket number', async () => {
    const response = await post(
      ticketForm({ ...VALID, name: 'Ada Visitor', email: 'ada@example.com' }, [
        { name: 'screenshot.png', data: PNG, type: 'image/png' },
        { name: 'trace.pdf', data: PDF },
      ]),
    );
    expect(response.statusCode).toBe(201);
    const { ticket, message } = response.json();
    expect(ticket.number).toBeGreaterThan(0);
    expect(message).toBe(TICKET_MESSAGES.created(ticket.number));
    expect(ticket.attachments.map((a: { filename: string; mimeType: string }) => [a.filename, a.mimeType])).toEqual([
      ['screenshot.png', 'image/png'],
      ['trace.pdf', 'application/pdf'],
    ]);
    const db = test.app.context.database.db;
    const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
    expect(row).toMatchObject({
      subject: VALID.subject,
      priority: 'high',
      category: 'technical',
      email: 'ada@example.com',
      channel: 'support',
      userId: null,
    });
    const stored = await db.select().from(ticketAttachments).where(eq(ticketAttachments.ticketId, ticket.id));
    expect(stored.find((file) => file.filename === 'screenshot.png')?.data.equals(PNG)).toBe(true);
    const [mail] = await readOutbox(test.app.context, 'ada@example.com', 'support_ticket');
    expect(mail?.subject).toContain(`#${ticket.number}`);
    expect(mail?.text).toContain('Mon-Fri 9AM-6PM EST');
    expect(mail?.text).toContain('Attachments: 2 files');
    // Nothing the visitor typed goes to the address they claim (it is not verified).
    expect(`${mail?.subject} ${mail?.text}`).not.toContain(VALID.subject);
    expect(mail?.text).not.toContain('screenshot.png');
  });

  it('uses the account of a signed-in user, lists their tickets and serves their attachments only to them', async () => {
    const owner = await createUserWithSession(test.app, { name: 'Owner' });
    const created = await post(ticketForm(VALID, [{ name: 'a.png', data: PNG }]), owner.cookie);
    expect(created.statusCode).toBe(201);
    const ticket = created.json().ticket;
    expect(ticket.email).toBe(owner.user.email);

    const list = await test.app.inject({ method: 'GET', url: '/api/v1/support/tickets', headers: { cookie: owner.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().tickets.map((t: { number: number }) => t.number)).toEqual([ticket.number]);

    const attachmentUrl = `/api/v1/support/attachments/${ticket.attachments[0].id}`;
    const download = await test.app.inject({ method: 'GET', url: attachmentUrl, headers: { cookie: owner.cookie } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(PNG)).toBe(true);

    const stranger = await createUserWithSession(test.app);
    expect((await test.app.inject({ method: 'GET', url: attachmentUrl, headers: { cookie: stranger.cookie } })).statusCode).toBe(404);
    expect((await test.app.inject({ method: 'GET', url: '/api/v1/support/tickets' })).statusCode).toBe(401);
  });

  it('refuses a ticket sent for an account whose session has ended (401 session_expired), and stores nothing', async () => {
    const account = { [TICKET_SENDER_HEADER]: 'account' };
    const db = test.app.context.database.db;
    const before = (await db.select().from(supportTickets)).length;
    // Signed out elsewhere: the form's cookie no longer resolves.
    const ended = await createUserWithSession(test.app, { name: 'Signed Out Elsewhere' });
    const logout = await test.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie: ended.cookie } });
    expect(logout.statusCode).toBeLessThan(300);
    const signedOut = await test.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      payload: ticketForm({ ...VALID, subject: 'Sent after the session ended' }, [{ name: 'a.png', data: PNG }]),
      headers: { ...account, cookie: ended.cookie },
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ error: { code: 'session_expired', message: TICKET_MESSAGES.sessionEnded } });
    expect((await db.select().from(supportTickets)).length).toBe(before);

    // The same claim with a live session is the account's ticket; without the claim a visitor's.
    const owner = await createUserWithSession(test.app, { name: 'Still Signed In' });
    const signedIn = await test.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      payload: ticketForm(VALID),
      headers: { ...account, cookie: owner.cookie },
    });
    expect(signedIn.statusCode).toBe(201);
    expect(signedIn.json().ticket.email).toBe(owner.user.email);
    const visitor = await post(ticketForm({ ...VALID, name: 'Ada Visitor', email: 'ada-visitor@example.com' }));
    expect(visitor.statusCode).toBe(201);
  });

  it('refuses a program renamed as .png, by its content', async () => {
    const response = await post(
      ticketForm({ ...VALID, name: 'A', email: 'a@example.com' }, [{ name: 'photo.png', data: EXE, type: 'image/png' }]),
    );
    expect(response.statusCode).toBe(415);
    expect(response.json().error.message).toBe(TICKET_MESSAGES.attachmentType('photo.png'));
  });

  it('refuses an attachment over 10 MB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(ATTACHMENT_MAX_BYTES, 1)]);
    const response = await post(ticketForm({ ...VALID, name: 'A', email: 'a@example.com' }, [{ name: 'huge.png', data: big }]));
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe(TICKET_MESSAGES.attachmentTooLarge('huge.png'));
  });

  it('accepts an attachment of exactly 10 MB', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(ATTACHMENT_MAX_BYTES - PNG.length, 1)]);
    const response = await post(ticketForm({ ...VALID, name: 'A', email: 'a@example.com' }, [{ name: 'exact.png', data: exact }]));
    expect(response.statusCode).toBe(201);
    expect(response.json().ticket.attachments[0].sizeBytes).toBe(ATTACHMENT_MAX_BYTES);
  });

  it('requires a subject and a description, and name and e-mail from visitors', async () => {
    const noSubject = await post(ticketForm({ ...VALID, subject: '  ', name: 'A', email: 'a@example.com' }));
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json().error).toMatchObject({
      message: TICKET_MESSAGES.subjectRequired,
      fields: { subject: TICKET_MESSAGES.subjectRequired },
    });
    const noDescription = await post(ticketForm({ ...VALID, description: '', name: 'A', email: 'a@example.com' }));
    expect(noDescription.json().error.fields.description).toBe(TICKET_MESSAGES.descriptionRequired);
    const noEmail = await post(ticketForm({ ...VALID, name: 'A' }));
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error.fields.email).toBe(TICKET_MESSAGES.emailRequired);
    const badPriority = await post(ticketForm({ ...VALID, priority: 'whenever', name: 'A', email: 'a@example.com' }));
    expect(badPriority.statusCode).toBe(400);
    expect(badPriority.json().error.fields.priority).toBeDefined();
  });

  it('refuses more than five attachments and non-multipart bodies', async () => {
    const files = Array.from({ length: 6 }, (_, index) => ({ name: `f${index}.png`, data: PNG }));
    const response = await post(ticketForm({ ...VALID, name: 'A', email: 'a@example.com' }, files));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(TICKET_MESSAGES.tooManyAttachments);
    const json = await test.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: VALID });
    expect(json.statusCode).toBe(415);
  });

  it('answers a malformed multipart body with a 400 that says so, never a 500', async () => {
    const send = (payload: string, contentType: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/v1/support/tickets',
        payload,
        headers: { 'content-type': contentType },
        // An address of its own: the tickets allowed per address and hour are not this test's subject.
        remoteAddress: '127.0.0.71',
      });
    const part = (name: string, value: string) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const answers = [
      // No boundary in the content type.
      await send('garbage', 'multipart/form-data'),
      // A field cut short: the body ends inside it.
      await send('--x\r\nContent-Disposition: form-data; name="subject"\r\n\r\nhel', 'multipart/form-data; boundary=x'),
      // A file part cut short.
      await send(
        '--x\r\nContent-Disposition: form-data; name="attachments"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
        'multipart/form-data; boundary=x',
      ),
    ];
    expect(answers.map((answer) => [answer.statusCode, answer.json().error.message])).toEqual([
      [400, TICKET_MESSAGES.malformedForm],
      [400, TICKET_MESSAGES.malformedForm],
      [400, TICKET_MESSAGES.malformedForm],
    ]);
    const tooManyFields = await send(
      `${Array.from({ length: 25 }, (_, index) => part(`extra${index}`, 'x')).join('')}--x--\r\n`,
      'multipart/form-data; boundary=x',
    );
    expect(tooManyFields.statusCode).toBe(413);
    expect(tooManyFields.json().error.message).toBe(TICKET_MESSAGES.tooManyFields);
    // A well-formed body from the same address still gets its ticket.
    const fine = await send(
      `${Object.entries({ ...VALID, name: 'A', email: 'a@example.com' })
        .map(([name, value]) => part(name, value))
        .join('')}--x--\r\n`,
      'multipart/form-data; boundary=x',
    );
    expect(fine.statusCode).toBe(201);
  });

  it('counts the addresses of one IPv6 /64 as one sender', async () => {
    // JSON bodies (refused with 415): the limit counts before the body is read, and nothing is stored.
    const from = (remoteAddress: string) =>
      test.app.inject({ method: 'POST', url: '/api/v1/support/tickets', payload: VALID, remoteAddress });
    const statuses: number[] = [];
    for (let index = 1; index <= TICKETS_PER_HOUR + 1; index += 1)
      statuses.push((await from(`2001:db8:5:1::${index.toString(16)}`)).statusCode);
    expect(statuses.slice(0, TICKETS_PER_HOUR).every((status) => status === 415)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await from('2001:db8:5:2::1')).statusCode).toBe(415);
  });

  it('mails at most 3 confirmations an hour to one unverified address, but stores every ticket', async () => {
    const from = (email: string, cookie?: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/v1/support/tickets',
        payload: ticketForm({ ...VALID, name: 'Not The Owner', email }),
        headers: cookie ? { cookie } : {},
        remoteAddress: '127.0.0.72',
      });
    const statuses: number[] = [];
    for (const email of ['victim@example.org', 'victim@example.org', 'Victim@Example.org', 'VICTIM@EXAMPLE.ORG', 'victim@example.org'])
      statuses.push((await from(email)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const db = test.app.context.database.db;
    const stored = await db.select().from(supportTickets).where(eq(supportTickets.name, 'Not The Owner'));
    expect(stored).toHaveLength(5);
    const mailed = await Promise.all(
      ['victim@example.org', 'Victim@Example.org', 'VICTIM@EXAMPLE.ORG'].map((to) => readOutbox(test.app.context, to, 'support_ticket')),
    );
    expect(mailed.map((mails) => mails.length)).toEqual([2, 1, 0]);

    // A signed-in account with a verified address gets each of its confirmations.
    const owner = await createUserWithSession(test.app, { name: 'Busy Owner' });
    for (let index = 0; index < 4; index += 1) expect((await from('', owner.cookie)).statusCode).toBe(201);
    expect(await readOutbox(test.app.context, owner.user.email, 'support_ticket')).toHaveLength(4);
  });
});
