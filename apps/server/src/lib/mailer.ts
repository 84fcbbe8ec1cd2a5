import { desc, eq } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import nodemailer from 'nodemailer';
import type { AppContext } from '../context.ts';
import { outboxEmails } from '../db/schema/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for (`password_reset`, `support_ticket`, …): tests and the outbox filter on it. */
  kind: string;
}

export interface Mailer {
  /** Delivers (or, without SMTP, stores in the outbox); a delivery failure rejects. */
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
  context: Pick<AppContext, 'env' | 'database' | 'clock'>,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Mailer {
  const transport = context.env.SMTP_URL ? nodemailer.createTransport(smtpUrlWithTimeouts(context.env.SMTP_URL)) : null;
  const pending = new Set<Promise<void>>();

  /** Keeps the message in the outbox; with real SMTP only the envelope: bodies may hold one-time links (password resets). */
  async function store(message: MailMessage): Promise<number | undefined> {
    const [row] = await context.database.db
      .insert(outboxEmails)
      .values({
        to: message.to,
        subject: message.subject,
        text: transport ? '[delivered by SMTP; body not stored]' : message.text,
        kind: message.kind,
        createdAt: new Date(context.clock.now()),
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

  async function deliver(smtp: nodemailer.Transporter, message: MailMessage, id: number | undefined): Promise<void> {
    await smtp.sendMail({ from: context.env.MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
    if (id !== undefined)
      await context.database.db
        .update(outboxEmails)
        .set({ sentAt: new Date(context.clock.now()) })
        .where(eq(outboxEmails.id, id));
  }

  const undelivered = (message: MailMessage) => (error: unknown) =>
    log.error({ err: error, mail: { kind: message.kind } }, 'e-mail not delivered');

  const mailer: Mailer = {
    async send(message) {
      const id = await store(message);
      if (transport) await deliver(transport, message, id);
    },
    // The notice is stored before the request answers; the SMTP exchange runs after it, so a slow
    // or stalled server never holds the request (the user would give up and submit again).
    async notify(message) {
      const storing = store(message);
      mailer.background(storing.then((id) => (transport ? deliver(transport, message, id) : undefined)).catch(undelivered(message)));
      await storing.catch(() => undefined); // logged by the background part
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
