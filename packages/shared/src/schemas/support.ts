import { z } from 'zod';
import { Email, readableLabel, withoutControlCharacters } from './fields.ts';
import { ATTACHMENT_MAX_FILES, ATTACHMENT_TYPES, type AttachmentType, TICKET_CATEGORIES, TICKET_PRIORITIES } from './support-options.ts';

export * from './support-options.ts';

/** Support tickets (spec section 3, "Support ticket form"): one contract for the form, the server and the OpenAPI document. */
export const TicketPriority = z.enum(TICKET_PRIORITIES);
export type TicketPriority = z.infer<typeof TicketPriority>;
export const TicketCategory = z.enum(TICKET_CATEGORIES);
export type TicketCategory = z.infer<typeof TicketCategory>;

export const TICKET_MESSAGES = {
  subjectRequired: 'Subject is required',
  descriptionRequired: 'Description is required',
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  attachmentType: (filename: string) => `${filename} is not a PNG, JPG or PDF file. Only PNG, JPG and PDF attachments are accepted.`,
  attachmentTooLarge: (filename: string) => `${filename} is larger than 10 MB. Attachments must be 10 MB or smaller.`,
  tooManyAttachments: `You can attach up to ${ATTACHMENT_MAX_FILES} files.`,
  attachmentsTooLargeInTotal: 'The attachments add up to more than 25 MB. Attach 25 MB or less in all.',
  tooManyFields: 'The form has more fields than a ticket has. Send the subject, priority, category, description and attachments only.',
  malformedForm: 'The form could not be read: the body is not well-formed multipart/form-data (it may have been cut short). Send it again.',
  attachmentEmpty: (filename: string) => `${filename} is empty.`,
  created: (number: number) => `Ticket #${number} created. We've e-mailed you a confirmation.`,
  failure: 'Your ticket could not be sent. Please try again.',
  sessionEnded:
    'Your session has ended, so the ticket was not sent. Add your name and e-mail address at the top of the form, or sign in again.',
} as const;

/**
 * Sent by the support form of a signed-in user (`x-conductor-sender: account`): a ticket meant for
 * the account whose session no longer resolves is refused with 401 `session_expired` instead of
 * being read as a visitor's, so the form knows to ask for a name and e-mail address.
 */
export const TICKET_SENDER_HEADER = 'x-conductor-sender';

/** The form's text fields; `name` and `email` are required only when signed out (the account's are used otherwise). */
export const SupportTicketFields = z.object({
  subject: z
    .string({ error: TICKET_MESSAGES.subjectRequired })
    .trim()
    .min(1, TICKET_MESSAGES.subjectRequired)
    .max(200, 'Subject must be at most 200 characters')
    .refine(...withoutControlCharacters('Subject')),
  priority: TicketPriority,
  category: TicketCategory,
  description: z
    .string({ error: TICKET_MESSAGES.descriptionRequired })
    .trim()
    .min(1, TICKET_MESSAGES.descriptionRequired)
    .max(10_000, 'Description must be at most 10,000 characters')
    .refine(...withoutControlCharacters('Description')),
  name: z
    .string()
    .trim()
    .max(100, 'Name must be at most 100 characters')
    .refine(...readableLabel('Name'))
    .optional(),
  email: z.union([z.literal(''), Email]).optional(),
});
export type SupportTicketFields = z.infer<typeof SupportTicketFields>;

export const TicketAttachment = z.object({
  id: z.string(),
  filename: z.string(),
  mimeType: z.enum(ATTACHMENT_TYPES),
  sizeBytes: z.number().int().nonnegative(),
});
export type TicketAttachment = z.infer<typeof TicketAttachment>;

export const SupportTicket = z.object({
  id: z.string(),
  number: z.number().int().positive(),
  subject: z.string(),
  priority: TicketPriority,
  category: TicketCategory,
  description: z.string(),
  status: z.string(),
  email: z.string(),
  createdAt: z.string(),
  attachments: z.array(TicketAttachment),
});
export type SupportTicket = z.infer<typeof SupportTicket>;

export const SupportTicketCreated = z.object({ ticket: SupportTicket, message: z.string() });
export type SupportTicketCreated = z.infer<typeof SupportTicketCreated>;

export const SupportTicketList = z.object({ tickets: z.array(SupportTicket) });
export type SupportTicketList = z.infer<typeof SupportTicketList>;

/**
 * The attachment's real type from its first bytes (magic numbers), never from its name:
 * PNG `89 50 4E 47 0D 0A 1A 0A`, JPEG `FF D8 FF`, PDF `%PDF-`.
 */
export function detectAttachmentType(head: Uint8Array): AttachmentType | null {
  const starts = (signature: number[]) => signature.every((byte, index) => head[index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

/** Bytes needed by `detectAttachmentType`. */
export const ATTACHMENT_SIGNATURE_BYTES = 8;
