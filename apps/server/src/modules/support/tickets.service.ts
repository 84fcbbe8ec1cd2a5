import { randomUUID } from 'node:crypto';
import { SUPPORT } from '@conductor/shared';
import { withoutReordering } from '@conductor/shared/schemas/fields';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_FILES,
  ATTACHMENT_SIGNATURE_BYTES,
  type AttachmentType,
  detectAttachmentType,
  type SupportTicket,
  type SupportTicketFields,
  TICKET_CATEGORY_LABELS,
  TICKET_MESSAGES,
  TICKET_PRIORITY_LABELS,
} from '@conductor/shared/schemas/support';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { ConfirmationAllowance } from './confirmation-limit.ts';
import { type AttachmentSummary, insertTicket, listTicketsForUser, type TicketRow } from './tickets.repository.ts';

export interface UploadedFile {
  filename: string;
  data: Buffer;
  /** The upload went past ATTACHMENT_MAX_BYTES and was cut short by the parser. */
  truncated: boolean;
}

export interface NewTicketInput {
  fields: SupportTicketFields;
  files: UploadedFile[];
  user: UserRow | null;
}

type Deps = Pick<AppContext, 'database' | 'mailer' | 'clock'> & {
  /** Bounds the confirmations mailed to an address the sender only claims (see `confirmationAllowance`). */
  mayConfirm: ConfirmationAllowance;
};

/**
 * A file name safe to store and show: no path, no control characters, none that reverse the text
 * after them (`photo<U+202E>gnp.exe` would show as `photoexe.png`), at most 200 characters (whole
 * ones: the end of the name, where its extension is, is kept).
 */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = withoutReordering(base.replace(/\p{Cc}/gu, '')).trim();
  return Array.from(cleaned || 'attachment')
    .slice(-200)
    .join('');
}

/** The answer to an attachment over ATTACHMENT_MAX_BYTES. */
export function attachmentTooLarge(filename: string): AppError {
  return new AppError('payload_too_large', TICKET_MESSAGES.attachmentTooLarge(filename), {
    fields: { attachments: TICKET_MESSAGES.attachmentTooLarge(filename) },
  });
}

/** An attachment's type from its first ATTACHMENT_SIGNATURE_BYTES bytes (enough to refuse it before the rest is read). */
export function attachmentType(filename: string, head: Uint8Array): AttachmentType {
  const mimeType = detectAttachmentType(head.subarray(0, ATTACHMENT_SIGNATURE_BYTES));
  if (!mimeType) {
    throw new AppError('unsupported_media_type', TICKET_MESSAGES.attachmentType(filename), {
      fields: { attachments: TICKET_MESSAGES.attachmentType(filename) },
    });
  }
  return mimeType;
}

/** Every attachment is checked by its content (magic bytes), never by its name or declared type. */
export function checkAttachments(files: UploadedFile[]): { filename: string; mimeType: string; data: Buffer }[] {
  if (files.length > ATTACHMENT_MAX_FILES) throw new AppError('bad_request', TICKET_MESSAGES.tooManyAttachments);
  return files.map((file) => {
    const filename = cleanFilename(file.filename);
    if (file.truncated || file.data.length > ATTACHMENT_MAX_BYTES) throw attachmentTooLarge(filename);
    if (file.data.length === 0)
      throw new AppError('bad_request', TICKET_MESSAGES.attachmentEmpty(filename), {
        fields: { attachments: TICKET_MESSAGES.attachmentEmpty(filename) },
      });
    return { filename, mimeType: attachmentType(filename, file.data), data: file.data };
  });
}

export async function createTicket(deps: Deps, input: NewTicketInput): Promise<SupportTicket> {
  const { fields, user } = input;
  const name = user?.name ?? fields.name?.trim() ?? '';
  const email = user?.email ?? fields.email?.trim() ?? '';
  const missing: Record<string, string> = {};
  if (!user && !name) missing.name = TICKET_MESSAGES.nameRequired;
  if (!user && !email) missing.email = TICKET_MESSAGES.emailRequired;
  const [firstMissing] = Object.values(missing);
  if (firstMissing) throw new AppError('validation_failed', firstMissing, { fields: missing });
  const attachments = checkAttachments(input.files);
  const now = new Date(deps.clock.now());
  const stored = await insertTicket(
    deps.database.db,
    {
      id: randomUUID(),
      userId: user?.id ?? null,
      name: name || null,
      email,
      subject: fields.subject,
      priority: fields.priority,
      category: fields.category,
      description: fields.description,
      channel: 'support',
      status: 'open',
      createdAt: now,
    },
    attachments.map((attachment) => ({
      id: randomUUID(),
      filename: attachment.filename,
      mimeType: attachment.mimeType,
      sizeBytes: attachment.data.length,
      data: attachment.data,
      createdAt: now,
    })),
  );
  const ticket = toPublicTicket(stored.ticket, stored.attachments);
  // A verified account's own address is not capped; any other is (the ticket is stored either way).
  if (user?.verified || (await deps.mayConfirm(email))) await sendConfirmation(deps, ticket);
  return ticket;
}

export async function listTickets(deps: Pick<AppContext, 'database'>, userId: string): Promise<SupportTicket[]> {
  const rows = await listTicketsForUser(deps.database.db, userId);
  return rows.map((row) => toPublicTicket(row, row.attachments));
}

export function toPublicTicket(row: TicketRow, attachments: AttachmentSummary[]): SupportTicket {
  return {
    id: row.id,
    number: row.number,
    subject: row.subject,
    priority: row.priority as SupportTicket['priority'],
    category: row.category as SupportTicket['category'],
    description: row.description,
    status: row.status,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    attachments: attachments.map((attachment) => ({
      id: attachment.id,
      filename: attachment.filename,
      mimeType: attachment.mimeType as SupportTicket['attachments'][number]['mimeType'],
      sizeBytes: attachment.sizeBytes,
    })),
  };
}

/**
 * The ticket number and our own labels only: a visitor's address is not verified, so nothing they
 * typed (name, subject, file names) is mailed to it; otherwise the form would send anyone text of
 * a stranger's choosing from our domain.
 */
async function sendConfirmation(deps: Deps, ticket: SupportTicket): Promise<void> {
  const files = ticket.attachments.length;
  const text = [
    'Hello,',
    '',
    `We received your support request. Your ticket number is #${ticket.number}.`,
    '',
    `Priority: ${TICKET_PRIORITY_LABELS[ticket.priority]}`,
    `Category: ${TICKET_CATEGORY_LABELS[ticket.category]}`,
    ...(files > 0 ? [`Attachments: ${files} file${files === 1 ? '' : 's'}`] : []),
    '',
    `Our team answers ${SUPPORT.hours} and replies to e-mail ${SUPPORT.responseTime}.`,
    `Reply to this message or write to ${SUPPORT.email} and quote #${ticket.number}.`,
    '',
    'The Conductor team',
  ].join('\n');
  await deps.mailer.notify({
    to: ticket.email,
    subject: `[Conductor Support] Ticket #${ticket.number} received`,
    text,
    kind: 'support_ticket',
  });
}
