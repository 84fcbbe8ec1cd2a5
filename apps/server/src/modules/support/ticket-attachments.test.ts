import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_FILES, TICKET_MESSAGES } from '@conductor/shared/schemas/support';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { attachmentDisposition } from './tickets.routes.ts';
import { cleanFilename } from './tickets.service.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const FIELDS = {
  subject: 'Upload limits',
  priority: 'low',
  category: 'technical',
  description: 'Checking the upload.',
  name: 'A',
  email: 'a@example.com',
};
const MB = 1024 * 1024;

const field = (name: string, value: string) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (filename: string) =>
  `--x\r\nContent-Disposition: form-data; name="attachments"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`;
const fieldsPart = () =>
  Object.entries(FIELDS)
    .map(([name, value]) => field(name, value))
    .join('');

describe('cleanFilename', () => {
  it('drops the characters that reverse or isolate the text after them (a program shown as a picture)', () => {
    expect(cleanFilename('invoice\u202egnp.exe')).toBe('invoicegnp.exe');
    expect(cleanFilename('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069a.pdf')).toBe('a.pdf');
    expect(cleanFilename('\u202e\u2067')).toBe('attachment');
  });

  it('shortens a long name by whole characters, never half of one', () => {
    // 505 UTF-16 code units: the last 200 of them would start with half an emoji.
    const cleaned = cleanFilename(`${'😀'.repeat(250)}a.png`);
    expect([...cleaned]).toHaveLength(200);
    expect(cleaned).toBe(`${'😀'.repeat(195)}a.png`);
    expect(cleaned).not.toMatch(/[\ud800-\udfff]/u);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the exact name as RFC 5987 filename*', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition("résumé (v2)'s *final*.pdf")).toBe(
      `attachment; filename="r_sum_ _v2__s _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%28v2%29%27s%20%2Afinal%2A.pdf`,
    );
    expect(attachmentDisposition('写真.png')).toBe(`attachment; filename="__.png"; filename*=UTF-8''%E5%86%99%E7%9C%9F.png`);
  });
});

describe('ticket uploads', () => {
  let test: TestApp;
  let nextAddress = 0;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(async () => test.close());

  /** Sends `head` as the start of a multipart body that never ends: only an answer given without the rest arrives. */
  async function answerBeforeTheEnd(head: Buffer | string) {
    const body = new PassThrough();
    body.write(head);
    nextAddress += 1;
    const answer = test.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      payload: body,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      remoteAddress: `127.0.1.${nextAddress}`,
    });
    const timeout = new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 5_000));
    try {
      const response = await Promise.race([answer, timeout]);
      if (response === 'no answer') throw new Error('no answer before the body ended');
      return response;
    } finally {
      body.destroy();
    }
  }

  it('stores a file name without direction-changing characters, and serves a non-ASCII one under its own name', async () => {
    const owner = await createUserWithSession(test.app);
    const form = new FormData();
    for (const [key, value] of Object.entries(FIELDS)) form.append(key, value);
    form.append('attachments', new Blob([PNG]), 'photo\u202egnp.png');
    form.append('attachments', new Blob([PDF]), 'Übersicht März.pdf');
    const created = await test.app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      payload: form,
      headers: { cookie: owner.cookie },
    });
    expect(created.statusCode).toBe(201);
    const [photo, overview] = created.json().ticket.attachments as { id: string; filename: string }[];
    expect(photo?.filename).toBe('photognp.png');
    expect(overview?.filename).toBe('Übersicht März.pdf');
    const download = await test.app.inject({
      method: 'GET',
      url: `/api/v1/support/attachments/${overview?.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="_bersicht M_rz.pdf"; filename*=UTF-8''%C3%9Cbersicht%20M%C3%A4rz.pdf`,
    );
  });

  it('refuses more than 25 MB of attachments in all with a 413 that says so, before reading the rest', async () => {
    const nineMb = Buffer.concat([PNG, Buffer.alloc(9 * MB - PNG.length, 1)]);
    const head = Buffer.concat([
      Buffer.from(fieldsPart()),
      ...['a.png', 'b.png', 'c.png'].flatMap((name) => [Buffer.from(fileHead(name)), nineMb, Buffer.from('\r\n')]),
    ]);
    const response = await answerBeforeTheEnd(head);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe(TICKET_MESSAGES.attachmentsTooLargeInTotal);
  });

  it('refuses a program from its first bytes, without reading the rest of it', async () => {
    const response = await answerBeforeTheEnd(`${fieldsPart()}${fileHead('photo.png')}MZ${'\u0090'.repeat(64)}`);
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toMatchObject({
      message: TICKET_MESSAGES.attachmentType('photo.png'),
      fields: { attachments: TICKET_MESSAGES.attachmentType('photo.png') },
    });
  });

  it('refuses a file over 10 MB as soon as it passes the limit', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(10 * MB, 1)]);
    const response = await answerBeforeTheEnd(Buffer.concat([Buffer.from(`${fieldsPart()}${fileHead('huge.png')}`), big]));
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe(TICKET_MESSAGES.attachmentTooLarge('huge.png'));
  });

  it('refuses one file too many as it starts, without reading it', async () => {
    const files = Array.from({ length: ATTACHMENT_MAX_FILES }, (_, index) => `${fileHead(`f${index}.png`)}${PNG.toString('latin1')}\r\n`);
    const head = Buffer.from(`${fieldsPart()}${files.join('')}${fileHead('one-too-many.png')}${PNG.toString('latin1')}`, 'latin1');
    const response = await answerBeforeTheEnd(head);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(TICKET_MESSAGES.tooManyAttachments);
  });
});
