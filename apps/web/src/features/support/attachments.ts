/**
 * Checks attachments in the browser before anything is uploaded, with the server's own rules:
 * PNG, JPG or PDF by their content (magic bytes, not the name), 10 MB each, 25 MB in all, 5 at most.
 * Returns the first problem, or null. The server checks again. The rules load with the first
 * check (the shared module builds the ticket schema too, which the page does not load up front).
 */
export async function checkAttachments(files: File[]): Promise<string | null> {
  const {
    ATTACHMENT_MAX_BYTES,
    ATTACHMENT_MAX_FILES,
    ATTACHMENT_MAX_TOTAL_BYTES,
    ATTACHMENT_SIGNATURE_BYTES,
    detectAttachmentType,
    TICKET_MESSAGES,
  } = await import('@conductor/shared/schemas/support');
  if (files.length > ATTACHMENT_MAX_FILES) return TICKET_MESSAGES.tooManyAttachments;
  for (const file of files) {
    if (file.size > ATTACHMENT_MAX_BYTES) return TICKET_MESSAGES.attachmentTooLarge(file.name);
    if (file.size === 0) return TICKET_MESSAGES.attachmentEmpty(file.name);
    const head = new Uint8Array(await file.slice(0, ATTACHMENT_SIGNATURE_BYTES).arrayBuffer());
    if (!detectAttachmentType(head)) return TICKET_MESSAGES.attachmentType(file.name);
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > ATTACHMENT_MAX_TOTAL_BYTES) return TICKET_MESSAGES.attachmentsTooLargeInTotal;
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
