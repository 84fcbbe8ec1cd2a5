import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { supportTickets, ticketAttachments } from '../../db/schema/index.ts';

export type TicketRow = typeof supportTickets.$inferSelect;
export type NewTicketRow = Omit<typeof supportTickets.$inferInsert, 'number'>;
export type AttachmentRow = typeof ticketAttachments.$inferSelect;
export type AttachmentSummary = Omit<AttachmentRow, 'data'>;
export type NewAttachmentRow = Omit<typeof ticketAttachments.$inferInsert, 'ticketId'>;

const ATTACHMENT_SUMMARY = {
  id: ticketAttachments.id,
  ticketId: ticketAttachments.ticketId,
  filename: ticketAttachments.filename,
  mimeType: ticketAttachments.mimeType,
  sizeBytes: ticketAttachments.sizeBytes,
  createdAt: ticketAttachments.createdAt,
};

/** Stores a ticket and its attachments atomically; the ticket number comes from the serial column. */
export async function insertTicket(
  db: Database,
  ticket: NewTicketRow,
  attachments: NewAttachmentRow[],
): Promise<{ ticket: TicketRow; attachments: AttachmentSummary[] }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(supportTickets).values(ticket).returning();
    if (!row) throw new Error('insert returned no ticket');
    const stored =
      attachments.length === 0
        ? []
        : await tx
            .insert(ticketAttachments)
            .values(attachments.map((attachment) => ({ ...attachment, ticketId: row.id })))
            .returning(ATTACHMENT_SUMMARY);
    return { ticket: row, attachments: stored };
  });
}

export async function listTicketsForUser(
  db: Database,
  userId: string,
  limit = 50,
): Promise<(TicketRow & { attachments: AttachmentSummary[] })[]> {
  const tickets = await db
    .select()
    .from(supportTickets)
    // Support-centre tickets only: contact-form messages share the table (channel `contact`) with their own shape.
    .where(and(eq(supportTickets.userId, userId), eq(supportTickets.channel, 'support')))
    .orderBy(desc(supportTickets.number))
    .limit(limit);
  if (tickets.length === 0) return [];
  const attachments = await db
    .select(ATTACHMENT_SUMMARY)
    .from(ticketAttachments)
    .where(
      inArray(
        ticketAttachments.ticketId,
        tickets.map((ticket) => ticket.id),
      ),
    );
  return tickets.map((ticket) => ({ ...ticket, attachments: attachments.filter((attachment) => attachment.ticketId === ticket.id) }));
}

/** One attachment with its bytes, only if it belongs to a ticket of `userId`. */
export async function findAttachmentForUser(db: Database, userId: string, attachmentId: string): Promise<AttachmentRow | undefined> {
  const [row] = await db
    .select({ attachment: ticketAttachments, ownerId: supportTickets.userId })
    .from(ticketAttachments)
    .innerJoin(supportTickets, eq(supportTickets.id, ticketAttachments.ticketId))
    .where(eq(ticketAttachments.id, attachmentId))
    .limit(1);
  return row && row.ownerId === userId ? row.attachment : undefined;
}
