import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { PassThrough } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { supportTickets } from '../../db/schema/index.ts';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import {
  TicketUpload,
  UPLOAD_LIMITS,
  UPLOAD_MESSAGES,
  type UploadGate,
  UploadRefusal,
  UploadSlots,
  type VisitorBudget,
  uploadGateOf,
} from './upload-limits.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const MB = 1024 * 1024;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const field = (name: string, value: string) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (filename: string) =>
  `--x\r\nContent-Disposition: form-data; name="attachments"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`;
const fieldsPart = (subject: string) =>
  Object.entries({
    subject,
    priority: 'low',
    category: 'technical',
    description: 'Checking the limits.',
    name: 'A',
    email: 'a@example.com',
  })
    .map(([name, value]) => field(name, value))
    .join('');
const END = '--x--\r\n';

/** A whole multipart ticket with `files` PNG attachments (none: a ticket without attachments). */
const wholeTicket = (subject: string, files: number) =>
  Buffer.concat([
    Buffer.from(fieldsPart(subject)),
    ...Array.from({ length: files }, (_, index) => [Buffer.from(fileHead(`f${index}.png`)), PNG, Buffer.from('\r\n')]).flat(),
    Buffer.from(END),
  ]);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function harness(getTest: () => TestApp) {
  const gate = (): UploadGate => {
    const found = uploadGateOf(getTest().app.context);
    if (!found) throw new Error('no upload gate');
    return found;
  };
  const send = (payload: Buffer | PassThrough, remoteAddress: string, cookie?: string) =>
    getTest().app.inject({
      method: 'POST',
      url: '/api/v1/support/tickets',
      payload,
      headers: { 'content-type': 'multipart/form-data; boundary=x', ...(cookie ? { cookie } : {}) },
      remoteAddress,
    });
  /** An upload whose first file has started and whose body does not go on until `finish()`. */
  const held = (remoteAddress: string, subject = 'Held upload', cookie?: string) => {
    const body = new PassThrough();
    body.write(Buffer.concat([Buffer.from(`${fieldsPart(subject)}${fileHead('held.png')}`), PNG]));
    const answer = send(body, remoteAddress, cookie);
    return {
      answer,
      finish: () => body.end(Buffer.from(`\r\n${END}`)),
      abort: () => body.destroy(),
    };
  };
  /** The answer to a body that never ends (rejects if there is none within 5 s: the rest was waited for). */
  const answerBeforeTheEnd = async (head: Buffer, remoteAddress: string) => {
    const body = new PassThrough();
    body.write(head);
    const timeout = new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 5_000));
    try {
      const response = await Promise.race([send(body, remoteAddress), timeout]);
      if (response === 'no answer') throw new Error('no answer before the body ended');
      return response;
    } finally {
      body.destroy();
    }
  };
  const storedWithSubject = async (subject: string) => {
    const [row] = await getTest()
      .app.context.database.db.select({ n: count() })
      .from(supportTickets)
      .where(eq(supportTickets.subject, subject));
    return row?.n ?? 0;
  };
  return { gate, send, held, answerBeforeTheEnd, storedWithSubject };
}

describe('ticket uploads in flight', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(async () => test.close());
  const { gate, send, held, answerBeforeTheEnd } = harness(() => test);

  it(`reads at most ${UPLOAD_LIMITS.inFlight} uploads at once, and answers the next 503 with Retry-After before reading its files`, async () => {
    const customer = await createUserWithSession(test.app);
    const first = held('198.51.100.11');
    const second = held('198.51.100.12', 'Held upload', customer.cookie);
    try {
      await until(() => gate().slots.inFlight === 2, 'two uploads in flight');
      const refused = await answerBeforeTheEnd(
        Buffer.concat([Buffer.from(`${fieldsPart('Third upload')}${fileHead('third.png')}`), PNG]),
        '198.51.100.13',
      );
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe(String(UPLOAD_LIMITS.busyRetrySeconds));
      expect(refused.json()).toEqual({
        error: { code: 'attachments_busy', message: UPLOAD_MESSAGES.busy(UPLOAD_LIMITS.busyRetrySeconds) },
      });
      // A ticket without attachments needs no place.
      expect((await send(wholeTicket('No attachments while busy', 0), '198.51.100.14')).statusCode).toBe(201);
    } finally {
      first.finish();
      second.finish();
    }
    expect((await first.answer).statusCode).toBe(201);
    expect((await second.answer).statusCode).toBe(201);
    expect(gate().slots.inFlight).toBe(0);
    expect((await send(wholeTicket('After the busy spell', 1), '198.51.100.13')).statusCode).toBe(201);
  });

  it(`keeps ${UPLOAD_LIMITS.inFlight - UPLOAD_LIMITS.visitorInFlight} of the places for confirmed accounts: signed-out senders from other addresses wait`, async () => {
    const first = held('198.51.100.41', 'Visitor upload');
    try {
      await until(() => gate().slots.inFlight === 1, 'one upload in flight');
      const visitor = await answerBeforeTheEnd(
        Buffer.concat([Buffer.from(`${fieldsPart('Second visitor')}${fileHead('v.png')}`), PNG]),
        '198.51.100.42',
      );
      expect(visitor.statusCode).toBe(503);
      expect(visitor.json().error.code).toBe('attachments_busy');
      const customer = await createUserWithSession(test.app);
      expect((await send(wholeTicket('Customer while a visitor uploads', 1), '198.51.100.43', customer.cookie)).statusCode).toBe(201);
    } finally {
      first.finish();
    }
    expect((await first.answer).statusCode).toBe(201);
    expect(gate().slots.inFlight).toBe(0);
  });

  it('reads one upload at a time per address (an IPv6 /64 as one), refusing another with 429', async () => {
    const first = held('2001:db8:77:1::1');
    try {
      await until(() => gate().slots.inFlight === 1, 'one upload in flight');
      const sameNetwork = await answerBeforeTheEnd(
        Buffer.concat([Buffer.from(`${fieldsPart('Same network')}${fileHead('b.png')}`), PNG]),
        '2001:db8:77:1:abcd::2',
      );
      expect(sameNetwork.statusCode).toBe(429);
      expect(sameNetwork.headers['retry-after']).toBe(String(UPLOAD_LIMITS.busyRetrySeconds));
      expect(sameNetwork.json().error).toEqual({ code: 'rate_limited', message: UPLOAD_MESSAGES.addressBusy });
      const customer = await createUserWithSession(test.app);
      expect((await send(wholeTicket('Another network', 1), '2001:db8:77:2::1', customer.cookie)).statusCode).toBe(201);
    } finally {
      first.finish();
    }
    expect((await first.answer).statusCode).toBe(201);
    expect((await send(wholeTicket('Same network, after', 1), '2001:db8:77:1::3')).statusCode).toBe(201);
  });

  it('gives the place back when an upload is refused or cut off', async () => {
    const notPng = await send(
      Buffer.from(`${fieldsPart('Not a PNG')}${fileHead('a.png')}MZ${'\u0090'.repeat(64)}\r\n${END}`, 'latin1'),
      '198.51.100.21',
    );
    expect(notPng.statusCode).toBe(415);
    expect(gate().slots.inFlight).toBe(0);
  });

  it('stops an upload that takes longer than its deadline with a 408, and frees its place at once', async () => {
    const limits = gate().limits;
    const before = limits.readSeconds;
    limits.readSeconds = 0.2;
    const slow = held('198.51.100.31', 'Too slow');
    try {
      const response = await slow.answer;
      expect(response.statusCode).toBe(408);
      // Closed, so that a browser does not send the upload again on the same connection.
      expect(response.headers.connection).toBe('close');
      expect(response.json()).toEqual({ error: { code: 'upload_timeout', message: UPLOAD_MESSAGES.tooSlow(0.2) } });
      expect(gate().slots.inFlight).toBe(0);
    } finally {
      limits.readSeconds = before;
      slow.abort();
    }
  });
});

describe('an upload whose deadline passes after its last byte', () => {
  it('is refused with the 408 when the body is read: its place is gone, so it is not stored', () => {
    vi.useFakeTimers();
    try {
      const limits = { ...UPLOAD_LIMITS };
      const gate: UploadGate = { slots: new UploadSlots(limits), budget: {} as VisitorBudget, limits };
      const raw = { destroy: vi.fn() };
      const request = { ip: '198.51.100.41', auth: { user: { isDemo: false, verified: true } }, raw } as unknown as FastifyRequest;
      const upload = new TicketUpload(gate, request);
      // The last chunk was read (the deadline checked before it); the timer fires before the read is declared over.
      void upload.beforeFile();
      expect(gate.slots.inFlight).toBe(1);
      vi.advanceTimersByTime(limits.readSeconds * 1000 + 1);
      expect(gate.slots.inFlight).toBe(0);
      let refusal: unknown;
      try {
        upload.finishedReading();
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(UploadRefusal);
      expect(refusal).toMatchObject({ code: 'upload_timeout', message: UPLOAD_MESSAGES.tooSlow(limits.readSeconds) });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('an upload whose sender goes away', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(async () => test.close());

  it('gives its place back when the connection closes mid-file', async () => {
    // Over a real socket: the disconnect is what the server sees of a sender that goes away.
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const upload = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/support/tickets',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    upload.on('error', () => undefined);
    upload.write(Buffer.concat([Buffer.from(`${fieldsPart('Gone away')}${fileHead('a.png')}`), PNG]));
    const gate = uploadGateOf(test.app.context);
    await until(() => gate?.slots.inFlight === 1, 'the upload in flight');
    upload.destroy();
    await until(() => gate?.slots.inFlight === 0, 'the place given back');
  });
});

describe('daily attachment budgets of signed-out senders', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(async () => test.close());
  const { gate, send, answerBeforeTheEnd, storedWithSubject } = harness(() => test);

  it(`allows ${UPLOAD_LIMITS.visitorBytesPerAddressPerDay / MB} MB a day per address, then answers 429 and stores nothing`, async () => {
    const address = '203.0.113.41';
    // Nearly all of the day's budget used already: room for one small file, not two.
    await gate().budget.perAddress.consume(address, UPLOAD_LIMITS.visitorBytesPerAddressPerDay - PNG.length - 10);
    expect((await send(wholeTicket('Fits the budget', 1), address)).statusCode).toBe(201);
    const over = await send(wholeTicket('Over the budget', 1), address);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json().error).toEqual({
      code: 'rate_limited',
      message: UPLOAD_MESSAGES.addressBudget,
      fields: { attachments: UPLOAD_MESSAGES.addressBudget },
    });
    expect(await storedWithSubject('Over the budget')).toBe(0);
    // The refusal cost nothing: exactly what was stored is counted.
    expect((await gate().budget.perAddress.get(address))?.consumedPoints).toBe(UPLOAD_LIMITS.visitorBytesPerAddressPerDay - 10);

    // Spent in full: refused as the first file starts, before any of it is read.
    await gate().budget.perAddress.consume(address, 10);
    const spent = await answerBeforeTheEnd(Buffer.concat([Buffer.from(`${fieldsPart('Spent')}${fileHead('a.png')}`), PNG]), address);
    expect(spent.statusCode).toBe(429);
    expect(spent.json().error.message).toBe(UPLOAD_MESSAGES.addressBudget);

    // A ticket without attachments still goes through; so do a verified account's attachments.
    expect((await send(wholeTicket('Text only', 0), address)).statusCode).toBe(201);
    const verified = await createUserWithSession(test.app);
    expect((await send(wholeTicket('Verified account', 1), address, verified.cookie)).statusCode).toBe(201);
    // The shared demo account (its password is public) and an unconfirmed account count as signed out.
    for (const overrides of [{ isDemo: true }, { verified: false }]) {
      const account = await createUserWithSession(test.app, overrides);
      expect((await send(wholeTicket('Counted as a visitor', 1), address, account.cookie)).statusCode).toBe(429);
    }
    // Another address has its own budget.
    expect((await send(wholeTicket('Another address', 1), '203.0.113.42')).statusCode).toBe(201);
  });

  it(`allows ${UPLOAD_LIMITS.visitorBytesPerDay / MB} MB a day from all signed-out senders together`, async () => {
    const spentToday = (await gate().budget.global.get('all'))?.consumedPoints ?? 0;
    await gate().budget.global.consume('all', UPLOAD_LIMITS.visitorBytesPerDay - spentToday - PNG.length - 10);
    const address = '203.0.113.51';
    const over = await send(wholeTicket('Over the global budget', 2), address);
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toBe(UPLOAD_MESSAGES.globalBudget);
    // Neither budget was charged for the refusal.
    expect((await gate().budget.perAddress.get(address))?.consumedPoints ?? 0).toBe(0);
    expect((await gate().budget.global.get('all'))?.consumedPoints).toBe(UPLOAD_LIMITS.visitorBytesPerDay - PNG.length - 10);
    expect((await send(wholeTicket('Within the global budget', 1), address)).statusCode).toBe(201);
    const verified = await createUserWithSession(test.app);
    expect((await send(wholeTicket('Verified, global budget spent', 2), address, verified.cookie)).statusCode).toBe(201);
  });
});

describe('daily attachment budgets shared through Redis', () => {
  const prefix = `conductor-test-${randomUUID().slice(0, 8)}:`;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp({ REDIS_URL, GATEWAY_REDIS_PREFIX: prefix });
    second = await createTestApp({ REDIS_URL, GATEWAY_REDIS_PREFIX: prefix });
  });
  afterAll(async () => {
    const redis = first.app.context.redis;
    const keys = (await redis?.keys(`${prefix}*`)) ?? [];
    if (keys.length > 0) await redis?.del(...keys);
    await first.close();
    await second.close();
  });
  const one = harness(() => first);
  const other = harness(() => second);

  it('counts the bytes of every instance under the deployment prefix', async () => {
    const address = '192.0.2.61';
    expect((await one.send(wholeTicket('Counted in Redis', 1), address)).statusCode).toBe(201);
    const redis = first.app.context.redis;
    expect(Number(await redis?.get(`${prefix}rl:ip:support-attachment-bytes:${address}`))).toBe(PNG.length);
    expect(Number(await redis?.get(`${prefix}rl:global:support-attachment-bytes:all`))).toBe(PNG.length);
    // The other instance sees the day's budget spent by the first.
    await one.gate().budget.perAddress.consume(address, UPLOAD_LIMITS.visitorBytesPerAddressPerDay - PNG.length);
    const refused = await other.send(wholeTicket('Refused by the other instance', 1), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(UPLOAD_MESSAGES.addressBudget);
  });
});
