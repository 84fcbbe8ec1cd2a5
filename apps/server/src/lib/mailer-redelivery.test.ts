import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSmtp, fakeSmtp } from '../../test/fake-smtp.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { outboxEmails } from '../db/schema/index.ts';
import pg from 'pg';
import {
  ATTEMPT_LEASE_MS,
  claimDueMail,
  createMailer,
  DELIVER_FOR_MS,
  MAX_ATTEMPTS,
  type MailMessage,
  mailDomain,
  openBody,
  RETRY_DELAYS_MS,
} from './mailer.ts';

/** A logger that keeps what was logged at error level. */
function recordingLog() {
  const errors: string[] = [];
  return { errors, info() {}, warn() {}, error: (_obj: object, message: string) => void errors.push(message) };
}

const givenUp = (log: ReturnType<typeof recordingLog>) => log.errors.filter((message) => message.startsWith('e-mail given up'));

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
    smtp.slow(0);
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

  it('reports attempts by outcome and the queue to Prometheus', async () => {
    const scrape = async () => (await harness.app.inject({ method: 'GET', url: '/metrics' })).body;
    const value = (body: string, series: string) => Number(body.match(new RegExp(`^${series} (\\d+)$`, 'm'))?.[1]);
    await failedNotice('ada-metrics-1@example.com', 'Metrics one');
    await failedNotice('ada-metrics-2@example.com', 'Metrics two');
    let body = await scrape();
    expect(value(body, 'conductor_mail_queued')).toBe(2);
    expect(value(body, 'conductor_mail_deliveries_total\\{outcome="failed"\\}')).toBe(2);
    expect(value(body, 'conductor_mail_deliveries_total\\{outcome="sent"\\}')).toBe(0);
    now += RETRY_DELAYS_MS[0];
    await mailer().redeliver();
    body = await scrape();
    expect(value(body, 'conductor_mail_queued')).toBe(0);
    expect(value(body, 'conductor_mail_deliveries_total\\{outcome="sent"\\}')).toBe(2);
    expect(value(body, 'conductor_mail_deliveries_total\\{outcome="given_up"\\}')).toBe(0);
  });

  /** Fails every attempt of one mail, due after due, until it is given up; returns the waits between attempts. */
  async function failUntilGivenUp(own: ReturnType<typeof createMailer>, to: string) {
    const waits: number[] = [];
    for (;;) {
      const [row] = await rowsTo(to);
      if (!row?.pendingBody) return { waits, row };
      const due = row.nextAttemptAt?.getTime() as number;
      waits.push(due - now);
      now = due;
      expect(await own.redeliver()).toEqual({ sent: 0, failed: 1, abandoned: 0 });
    }
  }
  const ownMailer = (log = recordingLog(), options: { attemptDeadlineMs?: number } = {}) => {
    const context = harness.app.context;
    return createMailer({ env: context.env, database: context.database, clock, secrets: context.secrets }, log, options);
  };

  it('backs off after each failure, to every 6 hours, and gives up when the next attempt would come after deliverUntil', async () => {
    const log = recordingLog();
    const own = ownMailer(log);
    smtp.fail(true);
    const started = now;
    await own.notify(notice('ada-backoff@example.com', 'Back off'));
    await own.drain();
    const { waits, row } = await failUntilGivenUp(own, 'ada-backoff@example.com');
    const hour = 60 * 60_000;
    // 1, 5, 15, 60 minutes, 3 hours, then 6 hours while the 3 days last: 17 attempts in all.
    expect(waits).toEqual([60_000, 300_000, 900_000, hour, 3 * hour, ...Array.from({ length: 11 }, () => 6 * hour)]);
    expect(row).toMatchObject({ attempts: 17, sentAt: null, pendingBody: null, nextAttemptAt: null });
    expect(now - started).toBeLessThan(DELIVER_FOR_MS);
    expect(now - started + 6 * hour).toBeGreaterThanOrEqual(DELIVER_FOR_MS);
    expect(givenUp(log)).toEqual(['e-mail given up (its next attempt would be too late)']);
    smtp.fail(false);
    now += 7 * 24 * hour;
    expect(await own.redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    expect(linesAbout('Back off')).toBe(0);
  });

  it('gives up a mail whose last attempt never finished (its claim ran out with every attempt used)', async () => {
    await failedNotice('ada-stuck@example.com', 'Stuck');
    const db = harness.app.context.database.db;
    // As if the 20th attempt's instance died mid-attempt: attempts used up, body kept, claim run out.
    await db
      .update(outboxEmails)
      .set({ attempts: MAX_ATTEMPTS, nextAttemptAt: new Date(now) })
      .where(eq(outboxEmails.to, 'ada-stuck@example.com'));
    expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 1 });
    const [row] = await rowsTo('ada-stuck@example.com');
    expect(row).toMatchObject({ pendingBody: null, nextAttemptAt: null, sentAt: null });
    expect(linesAbout('Stuck')).toBe(0);
  });

  it('gives up after MAX_ATTEMPTS however long the mail may wait', async () => {
    const log = recordingLog();
    const own = ownMailer(log);
    smtp.fail(true);
    await own.notify({ ...notice('ada-cap@example.com', 'Capped'), deliverForMs: 30 * 24 * 60 * 60_000 });
    await own.drain();
    const { waits, row } = await failUntilGivenUp(own, 'ada-cap@example.com');
    expect(waits).toHaveLength(MAX_ATTEMPTS - 1);
    expect(row).toMatchObject({ attempts: MAX_ATTEMPTS, pendingBody: null });
    expect(givenUp(log)).toEqual(['e-mail given up (out of attempts)']);
  });

  it('drops a mail that is no longer worth sending (a reset link that has expired) without sending it', async () => {
    smtp.fail(true);
    const reset: MailMessage = { ...notice('ada-reset@example.com', 'Reset link'), kind: 'password_reset', deliverForMs: 60 * 60_000 };
    await expect(mailer().send(reset)).rejects.toThrow();
    smtp.fail(false);
    now += 61 * 60_000;
    expect(await mailer().redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 1 });
    expect(linesAbout('Reset link')).toBe(0);
    const metrics = (await harness.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^conductor_mail_deliveries_total\{outcome="given_up"\} 1$/m);
    const [row] = await rowsTo('ada-reset@example.com');
    expect(row).toMatchObject({ sentAt: null, pendingBody: null, nextAttemptAt: null });
  });

  it('never sends a mail twice when two instances redeliver at once, and sends them all', async () => {
    const count = 25; // more than one claim's batch
    for (let index = 0; index < count; index++) await failedNotice(`ada-many-${index}@example.com`, `Many ${index}`);
    now += RETRY_DELAYS_MS[0];
    const other = ownMailer();
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

  it('an attempt takes its row first: a mail whose claim ran out while the batch was slow is sent once, by the instance that took it over', async () => {
    for (let index = 0; index < 3; index++) await failedNotice(`ada-slow-${index}@example.com`, `Slow ${index}`);
    now += RETRY_DELAYS_MS[0];
    smtp.slow(400);
    // Instance A claims all three and works through them slowly; its claim runs out meanwhile.
    const first = mailer().redeliver();
    await expect.poll(() => linesAbout('Slow 0')).toBe(1);
    now += ATTEMPT_LEASE_MS + 1_000;
    await expect.poll(() => linesAbout('Slow 1')).toBe(1);
    // Instance B claims what A has not reached yet (the third) and takes it before A does.
    const second = await ownMailer().redeliver();
    const firstReport = await first;
    expect([firstReport.sent, second.sent]).toEqual([2, 1]);
    for (let index = 0; index < 3; index++) expect(linesAbout(`Slow ${index}`)).toBe(1);
    for (let index = 0; index < 3; index++) {
      const [row] = await rowsTo(`ada-slow-${index}@example.com`);
      expect(row).toMatchObject({ attempts: 2, pendingBody: null });
    }
  });

  it('gives an attempt up at its deadline, however the server trickles, and schedules the next one', async () => {
    const own = ownMailer(recordingLog(), { attemptDeadlineMs: 200 });
    smtp.slow(1_500); // accepted only long after the deadline
    await own.notify(notice('ada-deadline@example.com', 'Deadline'));
    const started = performance.now();
    await own.drain();
    expect(performance.now() - started).toBeLessThan(1_200);
    const [row] = await rowsTo('ada-deadline@example.com');
    expect(row).toMatchObject({ attempts: 1, sentAt: null });
    expect(row?.nextAttemptAt?.getTime()).toBe(now + RETRY_DELAYS_MS[0]);
    // The server accepts it after all: recorded as sent, so its next attempt does not send it again.
    await expect.poll(async () => (await rowsTo('ada-deadline@example.com'))[0]?.sentAt, { timeout: 5_000 }).toBeInstanceOf(Date);
    await own.drain();
    now += RETRY_DELAYS_MS[0];
    expect(await own.redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    expect(linesAbout('Deadline')).toBe(1);
  });

  it('keeps one Message-ID for a mail across its attempts', async () => {
    // The first attempt reaches the data (so its Message-ID is seen) and is refused.
    const own = ownMailer();
    smtp.lines.length = 0; // only this mail's lines (row ids repeat across the tests' databases)
    smtp.reject(true);
    await own.notify(notice('ada-message-id@example.com', 'Same id'));
    await own.drain();
    smtp.reject(false);
    now += RETRY_DELAYS_MS[0];
    expect(await own.redeliver()).toEqual({ sent: 1, failed: 0, abandoned: 0 });
    const ids = smtp.lines.filter((line) => line.startsWith('Message-ID: '));
    const [row] = await rowsTo('ada-message-id@example.com');
    const mine = ids.filter((line) => line.endsWith(`.${row?.id}@conductor.dev>`));
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatch(/^Message-ID: <[0-9a-f]{24}\.\d+@conductor\.dev>$/);
    expect(mine[1]).toBe(mine[0]);
    expect(mailDomain('Conductor <no-reply@conductor.dev>')).toBe('conductor.dev');
    expect(mailDomain('bare@mail.example.org')).toBe('mail.example.org');
    for (const odd of ['no-at-sign', 'x@conductor.dev.', 'x@.conductor.dev', 'x@a..b', 'x@[127.0.0.1]'])
      expect(mailDomain(odd)).toBe('localhost');
  });

  it('stops before its next mail once the mailer is stopping, giving back what it had not tried', async () => {
    for (let index = 0; index < 3; index++) await failedNotice(`ada-stop-${index}@example.com`, `Stop ${index}`);
    now += RETRY_DELAYS_MS[0];
    const own = ownMailer();
    smtp.slow(300);
    const run = own.redeliver();
    await expect.poll(() => linesAbout('Stop 0')).toBe(1);
    await own.stop();
    expect(await run).toEqual({ sent: 1, failed: 0, abandoned: 0 });
    expect(await own.redeliver()).toEqual({ sent: 0, failed: 0, abandoned: 0 });
    for (const index of [1, 2]) {
      const [row] = await rowsTo(`ada-stop-${index}@example.com`);
      // Untried: its attempt count unchanged, due at once for another instance.
      expect(row).toMatchObject({ attempts: 1, sentAt: null });
      expect(row?.nextAttemptAt?.getTime()).toBeLessThanOrEqual(now);
    }
    smtp.slow(0);
    expect(await mailer().redeliver()).toEqual({ sent: 2, failed: 0, abandoned: 0 });
  });

  it('claims skip rows another transaction has locked (FOR UPDATE SKIP LOCKED)', async () => {
    const db = harness.app.context.database.db;
    expect(claimDueMail(db, now, 20).toSQL().sql).toContain('for update skip locked');
    const url = harness.app.context.env.DATABASE_URL;
    if (!url) return; // the embedded database has one connection: nothing else can hold a lock
    await failedNotice('ada-locked@example.com', 'Locked');
    await failedNotice('ada-free@example.com', 'Free');
    now += RETRY_DELAYS_MS[0];
    const [locked] = await rowsTo('ada-locked@example.com');
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select id from outbox_emails where id = $1 for update', [locked?.id]);
      const claimed = await claimDueMail(db, now, 20);
      expect(claimed.map((row) => row.to)).toEqual(['ada-free@example.com']);
    } finally {
      await other.query('rollback');
      await other.end();
    }
  });

  it('a reset mail is tried again only while its link works (one hour)', async () => {
    const { createUserWithSession } = await import('../../test/helpers.ts');
    const { user } = await createUserWithSession(harness.app);
    smtp.fail(true);
    const response = await harness.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email: user.email } });
    expect(response.statusCode).toBe(200);
    await mailer().drain();
    const [row] = await rowsTo(user.email);
    expect(row).toMatchObject({ kind: 'password_reset', attempts: 1, sentAt: null });
    expect((row?.deliverUntil?.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(60 * 60_000);
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
