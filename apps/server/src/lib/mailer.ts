import { desc, eq } from 'drizzle-orm';
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
}

/**
 * SMTP when SMTP_URL is set; otherwise the development outbox: stored in the database and
 * printed to the log so a developer (and the tests) can read it.
 */
export function createMailer(
  context: Pick<AppContext, 'env' | 'database' | 'clock'>,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Mailer {
  const transport = context.env.SMTP_URL ? nodemailer.createTransport(context.env.SMTP_URL) : null;
  const mailer: Mailer = {
    async notify(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        log.error({ err: error, mail: { kind: message.kind } }, 'e-mail not delivered');
      }
    },
    async send(message) {
      // With real SMTP only the envelope is kept: bodies may hold one-time links (password resets).
      const storedText = transport ? '[delivered by SMTP; body not stored]' : message.text;
      const [row] = await context.database.db
        .insert(outboxEmails)
        .values({
          to: message.to,
          subject: message.subject,
          text: storedText,
          kind: message.kind,
          createdAt: new Date(context.clock.now()),
        })
        .returning({ id: outboxEmails.id });
      if (transport) {
        await transport.sendMail({ from: context.env.MAIL_FROM, to: message.to, subject: message.subject, text: message.text });
        if (row)
          await context.database.db
            .update(outboxEmails)
            .set({ sentAt: new Date(context.clock.now()) })
            .where(eq(outboxEmails.id, row.id));
        return;
      }
      // Development outbox: the message body may hold a one-time link, which is the point here.
      log.info(
        { outbox: { to: message.to, subject: message.subject, kind: message.kind, text: message.text } },
        'development outbox e-mail',
      );
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
