import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSmtp, fakeSmtp } from '../../test/fake-smtp.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { outboxEmails } from '../db/schema/index.ts';
import {
  ATTEMPT_LEASE_MS,
  createMailer,
  DELIVER_FOR_MS,
  MAX_ATTEMPTS,
  type MailMessage,
  openBody,
  RETRY_DELAYS_MS,
  retryDelayMs,
} from './mailer.ts';

/** A logger that keeps what was logged at error level. */
function recordingLog() {
  const errors: string[] = [];
  return { errors, info() {}, warn() {}, error: (_obj: object, message: string) => void errors.push(message) };
}

const notice = (to: string, subject: string): MailMessage => ({
  to,
  subject,
  kind: 'support_ticket',
  text: `Hello,\n\nWe received "${subject}". Reference ${to}.\n`,
});

/**
 * With SMTP, a mail whose delivery fails is not lost: its body waits in the outbox, sealed, and
 * `redeliver` sends it once its next attempt is due, backing off, until it is delivered, no longer
 * worth sending, or out of attempts. Claims keep two instances from sending one mail twice.
 */
describe('outbox redelivery', () => {
  let smtp: FakeSmtp;
  let harness: TestApp;
  let now: number;
  const clock = { now: () => now };
  beforeAll(async () => {
    smtp = await fakeSmtp();
  });
  afterAll(async () => smtp?.close());
  beforeEach(async () => {
    now = Date.parse('2026-11-28T09:00:00Z');
    smtp.fail(false);
    harness = await createTestApp({ SMTP_URL: smtp.url }, { clock });
  });
  afterEach(async () => {
    smtp.release();
    await harness?.close();
  });

  const mailer = () => harness.app.context.mailer;
  const rowsTo = async (to: string) =>
    harness.app.context.database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to)).orderBy(outboxEmails.id);
  const linesAbout = (subject: string) => smtp.lines.filter((line) => line === `Subject: ${subject}`).length;
  /** A notice whose first delivery fails (the server answers 421): stored, and its retry scheduled. */
  async function failedNotice(to: string, subject: string) {
    smtp.fail(true);
    await mailer().notify(notice(to, subject));
    await mailer().drain();
    smtp.fail(false);
  }

  it('keeps a failed notice sealed, tries it again once due, and clears the body when it is delivered', async () => {
    const message = notice('ada-retry@example.com', 'Retry me');
    smtp.fail(true);
    await mailer().notify(message);
    await mailer().drain();
    smtp.fail(false);

    const [waiting] = await rowsTo(message.to);
    expect(waiting).toMatchObject({ sentAt: null, attempts: 1, text: '[delivered by SMTP; body not stored]' });
    expect(waiting?.nextAttemptAt?.getTime()).toBe(now + RETRY_DELAYS_MS[0]);
    expect(waiting?.deliverUntil?.getTime()).toBe(now + DELIVER_FOR_MS);
    // Sealed: the stored bytes do not hold the text, and open to it with the server's key.
    expect(waiting?.pendingBody?.toString('latin1')).not.toContain('Retry me');
    expect(openBody(waiting?.pendingBody as Buffer, harness.app.context.secrets.encryptionKey)).toBe(message.text);

    // Not due yet: nothing is sent.
    now += RETRY_DELAYS_MS[0] - 1_000;
    expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    expect(linesAbout('Retry me')).toBe(0);

    now += 2_000;
    expect(await mailer().redeliver()).toEqual({ sent: 1, failed: 0, abandoned: 0 });
    expect(linesAbout('Retry me')).toBe(1);
    expect(smtp.lines).toContain('We received "Retry me". Reference ada-retry@example.com.');
    const [sent] = await rowsTo(message.to);
    expect(sent).toMatchObject({ attempts: 2, pendingBody: null, nextAttemptAt: null });
    expect(sent?.sentAt?.getTime()).toBe(now);

    // Delivered once: a later run has nothing to do.
    now += 24 * 60 * 60_000;
    expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    expect(linesAbout('Retry me')).toBe(1);
  });

  it('backs off after each failure and gives up after MAX_ATTEMPTS', async () => {
    const log = recordingLog();
    const context = harness.app.context;
    const own = createMailer({ env: context.env, database: context.database, clock, secrets: context.secrets }, log);
    smtp.fail(true);
    await own.notify(notice('ada-backoff@example.com', 'Back off'));
    await own.drain();
    const waits: number[] = [];
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      const [row] = await rowsTo('ada-backoff@example.com');
      const due = row?.nextAttemptAt?.getTime() as number;
      waits.push(due - now);
      now = due;
      expect(await own.redeliver()).toEqual({ sent: 0, failed: 1, abandoned: 0 });
    }
    expect(waits).toEqual(Array.from({ length: MAX_ATTEMPTS - 1 }, (_, index) => retryDelayMs(index + 1)));
    expect(waits.slice(0, 6)).toEqual([60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000]);
    const [last] = await rowsTo('ada-backoff@example.com');
    expect(last).toMatchObject({ attempts: MAX_ATTEMPTS, sentAt: null, pendingBody: null, nextAttemptAt: null });
    expect(log.errors).toContain('e-mail given up (out of attempts)');
    smtp.fail(false);
    now += 7 * 24 * 60 * 60_000;
    expect(await own.redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    expect(linesAbout('Back off')).toBe(0);
  });

  it('drops a mail that is no longer worth sending (a reset link that has expired) without sending it', async () => {
    smtp.fail(true);
    const reset: MailMessage = { ...notice('ada-reset@example.com', 'Reset link'), kind: 'password_reset', deliverForMs: 60 * 60_000 };
    await expect(mailer().send(reset)).rejects.toThrow();
    smtp.fail(false);
    now += 61 * 60_000;
    expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 1 });
    expect(linesAbout('Reset link')).toBe(0);
    const [row] = await rowsTo('ada-reset@example.com');
    expect(row).toMatchObject({ sentAt: null, pendingBody: null, nextAttemptAt: null });
  });

  it('never sends a mail twice when two instances redeliver at once, and sends them all', async () => {
    const count = 25; // more than one claim's batch
    for (let index = 0; index < count; index++) await failedNotice(`ada-many-${index}@example.com`, `Many ${index}`);
    now += RETRY_DELAYS_MS[0];
    const context = harness.app.context;
    const other = createMailer({ env: context.env, database: context.database, clock, secrets: context.secrets }, recordingLog());
    const [first, second] = await Promise.all([mailer().redeliver(), other.redeliver()]);
    expect((first?.sent ?? 0) + (second?.sent ?? 0)).toBe(count);
    for (let index = 0; index < count; index++) expect(linesAbout(`Many ${index}`)).toBe(1);
    await other.drain();
  });

  it('leaves a mail alone while its attempt is under way, and takes it over once that attempt’s lease has run out', async () => {
    // The instance that stops: its SMTP server never answers, and it abandons the attempt at shutdown.
    const stalled = await fakeSmtp();
    stalled.hold();
    const context = harness.app.context;
    const stopping = createMailer(
      { env: { ...context.env, SMTP_URL: stalled.url }, database: context.database, clock, secrets: context.secrets },
      recordingLog(),
    );
    try {
      await stopping.notify(notice('ada-lease@example.com', 'Leased'));
      await expect.poll(() => stalled.sockets.size).toBeGreaterThan(0);
      await stopping.drain(50);
      expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
      now += ATTEMPT_LEASE_MS - 1_000;
      expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
      now += 1_000;
      expect(await mailer().redeliver()).toEqual({ sent: 1, failed: 0, abandoned: 0 });
      expect(linesAbout('Leased')).toBe(1);
      expect(stalled.lines).toEqual([]);
      const [row] = await rowsTo('ada-lease@example.com');
      expect(row).toMatchObject({ attempts: 2, pendingBody: null });
      expect(row?.sentAt).toBeInstanceOf(Date);
    } finally {
      await stalled.close();
    }
  });

  it('the outbox relay sends due mail on its own, every outboxRelayMs', async () => {
    const relaying = await createTestApp({ SMTP_URL: smtp.url }, { clock, outboxRelayMs: 50 });
    try {
      smtp.fail(true);
      await relaying.app.context.mailer.notify(notice('ada-relay@example.com', 'Relayed'));
      await relaying.app.context.mailer.drain();
      smtp.fail(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(linesAbout('Relayed')).toBe(0); // not due yet
      now += RETRY_DELAYS_MS[0];
      await expect.poll(() => linesAbout('Relayed'), { timeout: 5_000 }).toBe(1);
    } finally {
      await relaying.close();
    }
  });

  it('without SMTP there is nothing to redeliver: the development outbox keeps the body readable', async () => {
    const local = await createTestApp({}, { clock });
    try {
      await local.app.context.mailer.notify(notice('ada-local@example.com', 'Local'));
      const [row] = await local.app.context.database.db.select().from(outboxEmails).where(eq(outboxEmails.to, 'ada-local@example.com'));
      expect(row).toMatchObject({
        pendingBody: null,
        attempts: 0,
        nextAttemptAt: null,
        text: notice('x', 'Local').text.replace('x', 'ada-local@example.com'),
      });
      expect(await local.app.context.mailer.redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    } finally {
      await local.close();
    }
  });
});
