import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import type { AppContext } from '../context.ts';
import { outboxEmails } from '../db/schema/index.ts';
import { open, seal } from './crypto.ts';

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
  /** Failed again: tried later. */
  failed: number;
  /** Past their `deliverUntil` or out of attempts: dropped from the queue (and logged). */
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
   * With SMTP: sends again the mail whose delivery failed, or was abandoned at a shutdown, once its
   * next attempt is due. Each mail is claimed first (locked rows are skipped, and the claim is a
   * lease of ATTEMPT_LEASE_MS), so instances sharing a database never send the same one twice at
   * once. The outbox relay calls it every OUTBOX_RELAY_MS.
   */
  redeliver(): Promise<RedeliveryReport>;
}

/** How long a mail whose delivery failed is tried again, unless it says otherwise. */
export const DELIVER_FOR_MS = 3 * 24 * 60 * 60_000;
/** An attempt's claim: longer than the SMTP time-outs allow an attempt to take (10 + 10 + 10 + 30 s). */
export const ATTEMPT_LEASE_MS = 2 * 60_000;
/** The wait after the n-th failed attempt (the last one repeats), then MAX_ATTEMPTS in all. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 60 * 60_000, 6 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = 12;
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

/**
 * SMTP when SMTP_URL is set; otherwise the development outbox: stored in the database and
 * printed to the log so a developer (and the tests) can read it.
 */
export function createMailer(
  context: Pick<AppContext, 'env' | 'database' | 'clock' | 'secrets'>,
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Mailer {
  const transport = context.env.SMTP_URL ? nodemailer.createTransport(smtpUrlWithTimeouts(context.env.SMTP_URL)) : null;
  const pending = new Set<Promise<void>>();
  const { db } = context.database;
  const key = context.secrets.encryptionKey;

  /**
   * Keeps the message in the outbox. With real SMTP the readable row is only the envelope (bodies
   * may hold one-time links), the body is kept sealed until delivered, and the first attempt,
   * about to start, holds the claim.
   */
  async function store(message: MailMessage): Promise<number | undefined> {
    const now = context.clock.now();
    const [row] = await db
      .insert(outboxEmails)
      .values({
        to: message.to,
        subject: message.subject,
        text: transport ? '[delivered by SMTP; body not stored]' : message.text,
        kind: message.kind,
        createdAt: new Date(now),
        ...(transport && {
          pendingBody: sealBody(message.text, key),
          attempts: 1,
          nextAttemptAt: new Date(now + ATTEMPT_LEASE_MS),
          deliverUntil: new Date(now + (message.deliverForMs ?? DELIVER_FOR_MS)),
        }),
      })
      .returning({ id: outboxEmails.id });
    if (!transport)
      // Development outbox: the message body may hold a one-time link, which is the point here.
      log.info(
        { outbox: { to: message.to, subject: message.subject, kind: message.kind, text: message.text } },
        'development outbox e-mail',
      );
    return row?.id;
  }

  /** One attempt (the `attempts`-th) of a stored mail: marked sent, or its next attempt scheduled. */
  async function deliver(smtp: nodemailer.Transporter, message: MailMessage, id: number | undefined, attempts: number): Promise<void> {
    try {
      await smtp.sendMail({ from: context.env.MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      if (id !== undefined) await scheduleRetry(id, message, attempts).catch(() => undefined); // the claim's lease expires instead
      throw error;
    }
    if (id !== undefined)
      await db
        .update(outboxEmails)
        .set({ sentAt: new Date(context.clock.now()), pendingBody: null, nextAttemptAt: null })
        .where(eq(outboxEmails.id, id));
  }

  async function scheduleRetry(id: number, message: Pick<MailMessage, 'kind'>, attempts: number): Promise<void> {
    if (attempts >= MAX_ATTEMPTS) return abandon(id, message, attempts, 'out of attempts');
    await db
      .update(outboxEmails)
      .set({ nextAttemptAt: new Date(context.clock.now() + retryDelayMs(attempts)) })
      .where(eq(outboxEmails.id, id));
  }

  async function abandon(id: number, message: Pick<MailMessage, 'kind'>, attempts: number, reason: string): Promise<void> {
    await db.update(outboxEmails).set({ pendingBody: null, nextAttemptAt: null }).where(eq(outboxEmails.id, id));
    log.error({ mail: { id, kind: message.kind, attempts } }, `e-mail given up (${reason})`);
  }

  const undelivered = (message: MailMessage) => (error: unknown) =>
    log.error({ err: error, mail: { kind: message.kind } }, 'e-mail not delivered; it is tried again later');

  /** Claims up to a batch of due mails: locked rows are skipped, and each claimed one is leased for its attempt. */
  async function claimDue(now: number) {
    const due = db
      .select({ id: outboxEmails.id })
      .from(outboxEmails)
      .where(and(isNotNull(outboxEmails.pendingBody), isNull(outboxEmails.sentAt), lte(outboxEmails.nextAttemptAt, new Date(now))))
      .orderBy(asc(outboxEmails.nextAttemptAt))
      .limit(REDELIVERY_BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(outboxEmails)
      .set({ attempts: sql`${outboxEmails.attempts} + 1`, nextAttemptAt: new Date(now + ATTEMPT_LEASE_MS) })
      .where(and(inArray(outboxEmails.id, due), isNotNull(outboxEmails.pendingBody)))
      .returning();
  }

  async function redeliver(smtp: nodemailer.Transporter): Promise<RedeliveryReport> {
    const report: RedeliveryReport = { sent: 0, failed: 0, abandoned: 0 };
    for (let batch = 0; batch < REDELIVERY_BATCHES; batch++) {
      const now = context.clock.now();
      const claimed = await claimDue(now);
      for (const row of claimed) {
        const body = row.pendingBody;
        if (!body) continue;
        if (row.deliverUntil && row.deliverUntil.getTime() <= now) {
          await abandon(row.id, row, row.attempts - 1, 'no longer worth sending');
          report.abandoned += 1;
          continue;
        }
        let text: string;
        try {
          text = openBody(body, key);
        } catch {
          await abandon(row.id, row, row.attempts - 1, "its body cannot be read with this server's ENCRYPTION_KEY");
          report.abandoned += 1;
          continue;
        }
        try {
          await deliver(smtp, { to: row.to, subject: row.subject, kind: row.kind, text }, row.id, row.attempts);
          report.sent += 1;
        } catch (error) {
          report.failed += 1;
          log.warn(
            { err: error, mail: { id: row.id, kind: row.kind, attempts: row.attempts } },
            'e-mail not delivered again; it is tried again later',
          );
        }
      }
      if (claimed.length < REDELIVERY_BATCH) break;
    }
    return report;
  }

  const mailer: Mailer = {
    async send(message) {
      const id = await store(message);
      if (transport) await deliver(transport, message, id, 1);
    },
    // The notice is stored before the request answers; the SMTP exchange runs after it, so a slow
    // or stalled server never holds the request (the user would give up and submit again).
    async notify(message) {
      const storing = store(message);
      mailer.background(storing.then((id) => (transport ? deliver(transport, message, id, 1) : undefined)).catch(undelivered(message)));
      await storing.catch(() => undefined); // logged by the background part
    },
    async redeliver() {
      if (!transport) return { sent: 0, failed: 0, abandoned: 0 };
      const work = redeliver(transport);
      mailer.background(
        work.then(
          () => undefined,
          () => undefined,
        ),
      );
      return work;
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
        const timer = new AbortController();
        await Promise.race([
          Promise.allSettled([...pending]),
          sleep(left, undefined, { signal: timer.signal, ref: false }).catch(() => undefined),
        ]);
        timer.abort();
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
