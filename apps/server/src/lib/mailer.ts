import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import { settlesWithin } from './deadline.ts';
import nodemailer from 'nodemailer';
import type { AppContext } from '../context.ts';
import { outboxEmails } from '../db/schema/index.ts';
import { open, seal } from './crypto.ts';
import type { MailOutcome } from './metrics.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for (`password_reset`, `support_ticket`, …): tests and the outbox filter on it. */
  kind: string;
  /** How long a failed delivery is tried again (default DELIVER_FOR_MS); a reset mail, as long as its link works. */
  deliverForMs?: number;
}

/** What one `redeliver` did. */
export interface RedeliveryReport {
  sent: number;
  /** Attempts that failed: each mail is tried again later, or given up (and logged) if that was its last chance. */
  failed: number;
  /** Dropped without an attempt (and logged): past its `deliverUntil`, or its body unreadable with this server's key. */
  abandoned: number;
}

export interface Mailer {
  /** Delivers (or, without SMTP, stores in the outbox); a delivery failure rejects (and the mail is tried again later). */
  send(message: MailMessage): Promise<void>;
  /**
   * For a confirmation or notice about something already saved: a delivery failure is logged,
   * never the request's error (the user would retry, and save it twice).
   */
  notify(message: MailMessage): Promise<void>;
  /** Mail work done after the answer (it handles its own failures): closing the app waits for it, as for notices. */
  background(work: Promise<void>): void;
  /**
   * At shutdown: waits for the notices still being stored or delivered, at most `deadlineMs`
   * (the process gives itself 10 s to close), then logs and abandons what is left.
   */
  drain(deadlineMs?: number): Promise<void>;
  /**
   * With SMTP: sends again the mail whose delivery failed, or was abandoned when an instance
   * stopped, once its next attempt is due (the outbox relay calls it every OUTBOX_RELAY_MS). Due
   * rows are claimed with a lease (locked rows skipped), and each attempt first takes its row by its
   * attempt count, so while an attempt runs (at most ATTEMPT_DEADLINE_MS, inside the lease) no
   * other instance sends the same mail. Every write that ends an attempt checks that count, so a
   * stale attempt cannot undo a newer one. Assumes the instances' clocks agree to well within the lease.
   */
  redeliver(): Promise<RedeliveryReport>;
  /**
   * At shutdown, before `drain`: no redelivery starts, one under way stops before its next mail,
   * and the mail it had claimed but not tried is made due again at once for the other instances.
   */
  stop(): Promise<void>;
}

/** How long a mail whose delivery failed is tried again, unless it says otherwise. */
export const DELIVER_FOR_MS = 3 * 24 * 60 * 60_000;
/** How long one SMTP attempt may take in all: nodemailer's time-outs are per step (its socket one is idle time). */
export const ATTEMPT_DEADLINE_MS = 60_000;
/** An attempt's claim on its row: twice the deadline, so an attempt always ends inside it. */
export const ATTEMPT_LEASE_MS = 2 * ATTEMPT_DEADLINE_MS;
/** The wait after the n-th failed attempt (the last one repeats) while the mail is worth sending. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 60 * 60_000, 6 * 60 * 60_000] as const;
/** A bound besides `deliverUntil` (3 days of the schedule above take 17 attempts). */
export const MAX_ATTEMPTS = 20;
/** Mails claimed at a time, and batches at most per `redeliver`. */
const REDELIVERY_BATCH = 20;
const REDELIVERY_BATCHES = 10;

export function retryDelayMs(failedAttempts: number): number {
  return RETRY_DELAYS_MS[Math.min(failedAttempts, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0];
}

/** A body sealed for the outbox: IV (12 bytes), tag (16), ciphertext. */
export function sealBody(text: string, key: Buffer): Buffer {
  const sealed = seal(text, key);
  return Buffer.concat([sealed.iv, sealed.authTag, sealed.ciphertext]);
}

export function openBody(packed: Buffer, key: Buffer): string {
  return open({ iv: packed.subarray(0, 12), authTag: packed.subarray(12, 28), ciphertext: packed.subarray(28) }, key);
}

/**
 * nodemailer waits up to 30 s for DNS, 2 minutes for a connection, 30 s for the greeting and 10
 * minutes of silence by default: a stalled SMTP server would hold a send (and a shutdown) that long. Query
 * parameters already in SMTP_URL win.
 */
export const SMTP_TIMEOUTS_MS = { dnsTimeout: 10_000, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** How long closing the app waits for notices in flight by default. */
export const DRAIN_DEADLINE_MS = 5_000;

/** SMTP_URL with the timeouts above added where it sets none (nodemailer reads them from the query). */
export function smtpUrlWithTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, milliseconds] of Object.entries(SMTP_TIMEOUTS_MS))
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(milliseconds));
  return url.toString();
}

/** What an attempt knows of its stored mail. */
interface StoredMail {
  id: number;
  /** Attempts counted so far, this one included once it is taken: the row is this attempt's while the count holds. */
  attempts: number;
  createdAt: Date;
  deliverUntil: Date | null;
}

/**
 * Claims up to `limit` due mails for this instance: each gets a lease of ATTEMPT_LEASE_MS, and rows
 * another transaction has locked (claiming them at the same moment) are skipped.
 */
export function claimDueMail(db: AppContext['database']['db'], now: number, limit: number) {
  const due = db
    .select({ id: outboxEmails.id })
    .from(outboxEmails)
    .where(and(isNotNull(outboxEmails.pendingBody), isNull(outboxEmails.sentAt), lte(outboxEmails.nextAttemptAt, new Date(now))))
    .orderBy(asc(outboxEmails.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(outboxEmails)
    .set({ nextAttemptAt: new Date(now + ATTEMPT_LEASE_MS) })
    .where(and(inArray(outboxEmails.id, due), isNotNull(outboxEmails.pendingBody), isNull(outboxEmails.sentAt)))
    .returning();
}

/** Mail waiting to be delivered or tried again (the partial index on the queue serves it). */
export async function countQueuedMail(db: AppContext['database']['db']): Promise<number> {
  const [row] = await db.select({ queued: count() }).from(outboxEmails).where(isNotNull(outboxEmails.pendingBody));
  return row?.queued ?? 0;
}

/** The domain of MAIL_FROM (`Conductor <no-reply@conductor.dev>` or a bare address) when it is a plain dot-atom, for Message-IDs. */
export function mailDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  const domain = at < 0 ? '' : address.slice(at + 1).trim();
  return /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(domain) ? domain : 'localhost';
}

/**
 * SMTP when SMTP_URL is set; otherwise the development outbox: stored in the database and
 * printed to the log so a developer (and the tests) can read it, except under
 * NODE_ENV=production, where only its envelope is kept and logged.
 */
export function createMailer(
  context: Pick<AppContext, 'env' | 'database' | 'clock' | 'secrets'> & { metrics?: AppContext['metrics'] },
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
  /** Tests shorten an attempt's deadline (it must stay under ATTEMPT_LEASE_MS). */
  options: { attemptDeadlineMs?: number } = {},
): Mailer {
  const attemptDeadlineMs = Math.min(options.attemptDeadlineMs ?? ATTEMPT_DEADLINE_MS, ATTEMPT_DEADLINE_MS);
  const transport = context.env.SMTP_URL ? nodemailer.createTransport(smtpUrlWithTimeouts(context.env.SMTP_URL)) : null;
  // In production without SMTP a body (which may hold a one-time sign-in or reset link) is neither
  // logged nor stored: whoever reads the logs or the database must not be able to use it.
  const keepBodies = !transport && context.env.NODE_ENV !== 'production';
  if (!transport && !keepBodies)
    log.warn({}, 'SMTP_URL is not set: e-mail (password reset links, notices) is not delivered, and its bodies are not kept');
  const pending = new Set<Promise<void>>();
  const { db } = context.database;
  const key = context.secrets.encryptionKey;
  const counted = (outcome: MailOutcome) => context.metrics?.mail.count(outcome);
  if (transport) context.metrics?.mail.watchQueue(() => countQueuedMail(db));

  /**
   * Keeps the message in the outbox. With real SMTP the readable row is only the envelope (bodies
   * may hold one-time links), the body is kept sealed until delivered, and the first attempt,
   * about to start, holds the claim.
   */
  async function store(message: MailMessage): Promise<StoredMail | undefined> {
    const now = context.clock.now();
    const [row] = await db
      .insert(outboxEmails)
      .values({
        to: message.to,
        subject: message.subject,
        text: transport
          ? '[delivered by SMTP; body not stored]'
          : keepBodies
            ? message.text
            : '[not delivered: SMTP_URL is not set; body not stored]',
        kind: message.kind,
        createdAt: new Date(now),
        ...(transport && {
          pendingBody: sealBody(message.text, key),
          attempts: 1,
          nextAttemptAt: new Date(now + ATTEMPT_LEASE_MS),
          deliverUntil: new Date(now + (message.deliverForMs ?? DELIVER_FOR_MS)),
        }),
      })
      .returning({
        id: outboxEmails.id,
        attempts: outboxEmails.attempts,
        createdAt: outboxEmails.createdAt,
        deliverUntil: outboxEmails.deliverUntil,
      });
    if (keepBodies)
      // Development outbox: the message body may hold a one-time link, which is the point here.
      log.info(
        { outbox: { to: message.to, subject: message.subject, kind: message.kind, text: message.text } },
        'development outbox e-mail',
      );
    else if (!transport)
      log.warn({ outbox: { to: message.to, subject: message.subject, kind: message.kind } }, 'e-mail not delivered: SMTP_URL is not set');
    return row;
  }

  /**
   * A stored mail's one identity (`Message-ID`) for every attempt from any instance, so a receiver
   * can tell a repeat: the row and an HMAC of it under this deployment's key (unique across deployments).
   */
  const domain = mailDomain(context.env.MAIL_FROM);
  const messageId = (id: number, createdAt: Date) =>
    `<${createHmac('sha256', key).update(`outbox:${id}:${createdAt.getTime()}`).digest('hex').slice(0, 24)}.${id}@${domain}>`;

  /**
   * The SMTP exchange, given up after ATTEMPT_DEADLINE_MS. nodemailer cannot abort it, so a server
   * may still accept the mail afterwards: `late` then runs (at least once, but seldom twice).
   */
  async function sendWithin(smtp: nodemailer.Transporter, message: MailMessage, id: string | undefined, late: () => void): Promise<void> {
    const sending = smtp.sendMail({
      from: context.env.MAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      messageId: id,
    });
    if (await settlesWithin(sending, attemptDeadlineMs)) return;
    sending.then(late, () => undefined);
    throw new Error(`the SMTP exchange took longer than ${attemptDeadlineMs / 1_000} s`);
  }

  /** Records a mail as sent, while it is unsent (whoever attempted it). */
  async function markSent(row: StoredMail, kind: string): Promise<void> {
    try {
      await db
        .update(outboxEmails)
        .set({ sentAt: new Date(context.clock.now()), pendingBody: null, nextAttemptAt: null })
        .where(and(eq(outboxEmails.id, row.id), isNull(outboxEmails.sentAt)));
    } catch (error) {
      // Delivered, but not recorded: it goes out again once its claim runs out (at least once).
      log.error({ err: error, mail: { id: row.id, kind } }, 'e-mail delivered but not marked sent');
    }
  }

  /**
   * One attempt at a mail (`row`, when stored, holds it by its attempt count): marked sent, or given
   * its next attempt (or given up). The writes after it apply only while the row is still this attempt's.
   */
  async function deliver(smtp: nodemailer.Transporter, message: MailMessage, row: StoredMail | undefined): Promise<void> {
    // Accepted after the deadline, before the next attempt took the row: that attempt is not needed.
    const late = () => {
      counted('sent');
      if (row) mailer.background(markSent(row, message.kind));
    };
    try {
      await sendWithin(smtp, message, row && messageId(row.id, row.createdAt), late);
    } catch (error) {
      counted('failed');
      if (row) await afterFailure(row, message.kind).catch(() => undefined); // else the lease runs out and it is tried again
      throw error;
    }
    counted('sent');
    if (row) await markSent(row, message.kind);
  }

  /** This attempt's row: still pending, with the attempt count it had when taken. */
  const held = (row: Pick<StoredMail, 'id' | 'attempts'>) =>
    and(eq(outboxEmails.id, row.id), eq(outboxEmails.attempts, row.attempts), isNull(outboxEmails.sentAt));

  async function afterFailure(row: StoredMail, kind: string): Promise<void> {
    const next = context.clock.now() + retryDelayMs(row.attempts);
    if (row.attempts >= MAX_ATTEMPTS) return abandon(row, kind, 'out of attempts');
    if (row.deliverUntil && next >= row.deliverUntil.getTime()) return abandon(row, kind, 'its next attempt would be too late');
    await db
      .update(outboxEmails)
      .set({ nextAttemptAt: new Date(next) })
      .where(held(row));
  }

  async function abandon(row: Pick<StoredMail, 'id' | 'attempts'>, kind: string, reason: string): Promise<void> {
    const given = await db
      .update(outboxEmails)
      .set({ pendingBody: null, nextAttemptAt: null })
      .where(held(row))
      .returning({ id: outboxEmails.id });
    if (given.length === 0) return;
    counted('given_up');
    log.error({ mail: { id: row.id, kind, attempts: row.attempts } }, `e-mail given up (${reason})`);
  }

  /** Takes a claimed row for one attempt: counts it and renews the lease, unless another instance took it meanwhile. */
  async function takeForAttempt(row: StoredMail, now: number): Promise<StoredMail | undefined> {
    const [taken] = await db
      .update(outboxEmails)
      .set({ attempts: row.attempts + 1, nextAttemptAt: new Date(now + ATTEMPT_LEASE_MS) })
      .where(and(held(row), isNotNull(outboxEmails.pendingBody)))
      .returning({ id: outboxEmails.id });
    return taken && { ...row, attempts: row.attempts + 1 };
  }

  let stopping = false;
  /** Rows claimed by the run under way and not tried yet (id → attempts): `stop` gives them back. */
  const untried = new Map<number, number>();

  /** Makes claimed rows due again at once (for another instance), each while it is still untried. */
  async function giveBack(rows: [number, number][]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .update(outboxEmails)
      .set({ nextAttemptAt: new Date(context.clock.now()) })
      .where(
        and(
          isNull(outboxEmails.sentAt),
          or(...rows.map(([id, attempts]) => and(eq(outboxEmails.id, id), eq(outboxEmails.attempts, attempts)))),
        ),
      );
  }

  async function redeliver(smtp: nodemailer.Transporter): Promise<RedeliveryReport> {
    const report: RedeliveryReport = { sent: 0, failed: 0, abandoned: 0 };
    for (let batch = 0; batch < REDELIVERY_BATCHES && !stopping; batch++) {
      const claimed = await claimDueMail(db, context.clock.now(), REDELIVERY_BATCH);
      for (const row of claimed) untried.set(row.id, row.attempts);
      for (const row of claimed) {
        if (stopping) break; // `stop` gave the rest back
        untried.delete(row.id);
        const now = context.clock.now();
        if (!row.pendingBody) continue;
        if (row.attempts >= MAX_ATTEMPTS) {
          await abandon(row, row.kind, 'out of attempts');
          report.abandoned += 1;
          continue;
        }
        if (row.deliverUntil && row.deliverUntil.getTime() <= now) {
          await abandon(row, row.kind, 'no longer worth sending');
          report.abandoned += 1;
          continue;
        }
        let text: string;
        try {
          text = openBody(row.pendingBody, key);
        } catch {
          await abandon(row, row.kind, "its body cannot be read with this server's ENCRYPTION_KEY");
          report.abandoned += 1;
          continue;
        }
        const attempt = await takeForAttempt(row, now);
        if (!attempt) continue;
        try {
          await deliver(smtp, { to: row.to, subject: row.subject, kind: row.kind, text }, attempt);
          report.sent += 1;
        } catch (error) {
          report.failed += 1;
          log.warn({ err: error, mail: { id: row.id, kind: row.kind, attempts: attempt.attempts } }, 'e-mail not delivered again');
        }
      }
      // Stopped while claiming, or before `stop` could see them: what is left goes back too.
      const left = [...untried];
      untried.clear();
      if (stopping) await giveBack(left).catch(() => undefined); // else their claim runs out
      if (claimed.length < REDELIVERY_BATCH) break;
    }
    return report;
  }

  const mailer: Mailer = {
    async send(message) {
      const row = await store(message);
      if (transport) await deliver(transport, message, row);
    },
    // The notice is stored before the request answers; the SMTP exchange runs after it, so a slow
    // or stalled server never holds the request (the user would give up and submit again).
    async notify(message) {
      const storing = store(message);
      mailer.background(
        storing.then(
          (row) =>
            transport
              ? deliver(transport, message, row).catch((error: unknown) =>
                  log.error({ err: error, mail: { kind: message.kind } }, 'e-mail not delivered; it is tried again later'),
                )
              : undefined,
          (error: unknown) => log.error({ err: error, mail: { kind: message.kind } }, 'e-mail not stored, so not sent'),
        ),
      );
      await storing.catch(() => undefined); // logged by the background part
    },
    async redeliver() {
      if (!transport || stopping) return { sent: 0, failed: 0, abandoned: 0 };
      const work = redeliver(transport);
      mailer.background(
        work.then(
          () => undefined,
          () => undefined,
        ),
      );
      return work;
    },
    async stop() {
      stopping = true;
      const rows = [...untried];
      untried.clear();
      await giveBack(rows).catch((error: unknown) =>
        log.warn({ err: error }, 'could not give back the e-mail claimed for redelivery; it is due again when its claim runs out'),
      );
    },
    background(work) {
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },
    async drain(deadlineMs = DRAIN_DEADLINE_MS) {
      const deadline = performance.now() + deadlineMs;
      // A notice that starts while this waits is waited for too.
      while (pending.size > 0) {
        const left = deadline - performance.now();
        if (left <= 0) {
          log.error({ mail: { pending: pending.size } }, 'e-mail deliveries still running at shutdown were abandoned');
          transport?.close();
          return;
        }
        await settlesWithin(Promise.allSettled([...pending]), left);
      }
    },
  };
  return mailer;
}

/** Latest outbox messages for an address (tests and the development outbox). */
export async function readOutbox(context: Pick<AppContext, 'database'>, to: string, kind?: string) {
  const rows = await context.database.db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.to, to))
    .orderBy(desc(outboxEmails.id))
    .limit(20);
  return kind ? rows.filter((row) => row.kind === kind) : rows;
}
