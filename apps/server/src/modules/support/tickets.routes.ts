import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_FILES,
  ATTACHMENT_MAX_TOTAL_BYTES,
  ATTACHMENT_SIGNATURE_BYTES,
  SupportTicketCreated,
  SupportTicketFields,
  SupportTicketList,
  TICKET_MESSAGES,
  TICKET_SENDER_HEADER,
} from '@conductor/shared/schemas/support';
import { AppError } from '../../lib/errors.ts';
import { sendError } from '../../plugins/error-handler.ts';
import { findAttachmentForUser } from './tickets.repository.ts';
import { confirmationAllowance } from './confirmation-limit.ts';
import { attachmentTooLarge, attachmentType, cleanFilename, createTicket, listTickets, type UploadedFile } from './tickets.service.ts';
import { ticketRateLimit } from './ticket-rate-limit.ts';
import { createUploadGate, TicketUpload, UploadRefusal } from './upload-limits.ts';

const TEXT_FIELDS = new Set(['subject', 'priority', 'category', 'description', 'name', 'email']);

/** Support tickets: multipart form (fields + attachments), the signed-in user's list, attachment download. */
export const ticketRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    // One byte over the limit is read, so that readForm sees a file is too large while it arrives. A file
    // past ATTACHMENT_MAX_FILES is refused as its part starts (FilesLimitError), before any of it is read.
    limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: ATTACHMENT_MAX_FILES, fields: 20, fieldSize: 64 * 1024, parts: 30 },
  });

  const { database, mailer, clock, redis, env } = app.context;
  const deps = { database, mailer, clock, mayConfirm: confirmationAllowance('support-ticket', redis, env.GATEWAY_REDIS_PREFIX) };
  // Attachments are rationed: places in flight (per process) and signed-out senders' daily bytes (shared); see upload-limits.ts.
  const gate = createUploadGate(app.context);

  app.post(
    '/api/v1/support/tickets',
    {
      onRequest: ticketRateLimit(redis, env.GATEWAY_REDIS_PREFIX),
      schema: { response: { 201: SupportTicketCreated } },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('unsupported_media_type', 'Send the ticket as multipart/form-data.');
      // Refused before the upload is read: the account it was meant for is no longer signed in.
      if (request.headers[TICKET_SENDER_HEADER] === 'account' && !request.auth) {
        throw new AppError('session_expired', TICKET_MESSAGES.sessionEnded);
      }
      const upload = new TicketUpload(gate, request);
      try {
        const { values, files } = await readForm(request, upload);
        const parsed = SupportTicketFields.safeParse(values);
        if (!parsed.success) {
          const fields: Record<string, string> = {};
          for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? '_')] ??= issue.message;
          const [first] = Object.values(fields);
          throw new AppError('validation_failed', first ?? 'Invalid ticket', { fields });
        }
        const charge = await upload.charge(files.reduce((sum, file) => sum + file.data.length, 0));
        let ticket: Awaited<ReturnType<typeof createTicket>>;
        try {
          ticket = await createTicket(deps, { fields: parsed.data, files, user: request.auth?.user ?? null });
        } catch (error) {
          // Not stored (refused or failed): the bytes were not taken from the day's budgets after all.
          await charge.refund();
          throw error;
        }
        return reply.status(201).send({ ticket, message: TICKET_MESSAGES.created(ticket.number) });
      } catch (error) {
        // 503 and 408 have no AppError code: the same envelope, sent here. After a 408 the connection
        // is closed: a browser may send the request again on a kept-alive one (another slow upload).
        if (error instanceof UploadRefusal) {
          if (error.statusCode === 408) reply.header('connection', 'close');
          return sendError(request, reply, error);
        }
        throw error;
      } finally {
        upload.release();
      }
    },
  );

  // The shared demo account lists none: its visitors must not read each other's tickets (or files).
  app.get('/api/v1/support/tickets', { onRequest: app.requireUser, schema: { response: { 200: SupportTicketList } } }, async (request) => ({
    tickets: request.auth?.user.isDemo ? [] : await listTickets(app.context, request.auth?.user.id ?? ''),
  }));

  app.get(
    '/api/v1/support/attachments/:id',
    { onRequest: app.requireUser, schema: { params: z.object({ id: z.string().uuid() }) } },
    async (request, reply) => {
      const attachment = request.auth?.user.isDemo
        ? undefined
        : await findAttachmentForUser(app.context.database.db, request.auth?.user.id ?? '', request.params.id);
      if (!attachment) throw new AppError('not_found', 'Attachment not found.');
      return reply
        .header('content-type', attachment.mimeType)
        .header('content-disposition', attachmentDisposition(attachment.filename))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(attachment.data);
    },
  );
};

/**
 * `attachment` with the file's name twice: an ASCII fallback for old clients, and the exact name
 * as RFC 5987 `filename*` (UTF-8, percent-encoded), which browsers prefer (RFC 6266 section 4.3).
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\w.\- ]/g, '_');
  // Lone surrogates (which encodeURIComponent refuses) become U+FFFD; `'()*` are not attr-chars.
  const wellFormed = filename.replace(/[\ud800-\udfff]/gu, '\ufffd');
  const encoded = encodeURIComponent(wellFormed).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Reads every part, files into memory, and stops as soon as the upload is refused (the rest is not
 * read): a file past ATTACHMENT_MAX_BYTES, attachments past ATTACHMENT_MAX_TOTAL_BYTES in all, a file
 * whose first bytes are not a PNG, JPEG or PDF, one file too many, no place in flight for it (429
 * for the sender's address, 503 for the server), more than a signed-out sender's daily budgets have
 * left (429), or longer than UPLOAD_LIMITS.readSeconds (408).
 */
async function readForm(request: FastifyRequest, upload: TicketUpload): Promise<{ values: Record<string, string>; files: UploadedFile[] }> {
  const values: Record<string, string> = {};
  const files: UploadedFile[] = [];
  let total = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const filename = cleanFilename(part.filename);
        // A place in flight (and the budget checked) before any of the file is read; a nameless part
        // (an empty file input) takes it only if it brings bytes.
        if (part.filename) await upload.beforeFile();
        upload.current = part.file;
        const chunks: Buffer[] = [];
        let size = 0;
        let typeChecked = false;
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          await upload.beforeFile();
          chunks.push(chunk);
          size += chunk.length;
          total += chunk.length;
          if (size > ATTACHMENT_MAX_BYTES || part.file.truncated) throw attachmentTooLarge(filename);
          if (total > upload.allowance) throw upload.overAllowance();
          if (total > ATTACHMENT_MAX_TOTAL_BYTES) {
            throw new AppError('payload_too_large', TICKET_MESSAGES.attachmentsTooLargeInTotal, {
              fields: { attachments: TICKET_MESSAGES.attachmentsTooLargeInTotal },
            });
          }
          if (!typeChecked && size >= ATTACHMENT_SIGNATURE_BYTES) {
            attachmentType(filename, Buffer.concat(chunks));
            typeChecked = true;
          }
        }
        upload.current = null;
        // An empty file input still sends a part with no name and no bytes: not an attachment.
        if (!part.filename && chunks.length === 0) continue;
        // Shorter files (and the empty ones) are refused by the service, with the same messages.
        files.push({ filename: part.filename, data: Buffer.concat(chunks), truncated: part.file.truncated });
      } else if (TEXT_FIELDS.has(part.fieldname) && typeof part.value === 'string') {
        values[part.fieldname] = part.value;
      }
    }
    upload.finishedReading();
  } catch (error) {
    // Stopped for taking too long: whatever the read then failed with, that is the answer.
    if (upload.stopped) throw upload.tooSlow();
    if (error instanceof AppError || error instanceof UploadRefusal) throw error;
    const refusals = request.server.multipartErrors;
    if (error instanceof refusals.FilesLimitError) throw new AppError('bad_request', TICKET_MESSAGES.tooManyAttachments);
    if (error instanceof refusals.FieldsLimitError || error instanceof refusals.PartsLimitError)
      throw new AppError('payload_too_large', TICKET_MESSAGES.tooManyFields);
    // Nothing here touches the database: what else can fail is the body itself (no boundary,
    // data cut short, a part without its end), which the parser reports as a plain error.
    request.log.info({ err: error }, 'malformed multipart ticket body');
    throw new AppError('bad_request', TICKET_MESSAGES.malformedForm);
  }
  return { values, files };
}
