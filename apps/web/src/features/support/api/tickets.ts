import { MESSAGES } from '@conductor/shared';
import { type SupportTicketCreated, type SupportTicketFields, TICKET_SENDER_HEADER } from '@conductor/shared/schemas/support';
import { ApiError, announceFailure } from '~/lib/api-client';

export const supportKeys = {
  all: ['support'] as const,
  tickets: () => [...supportKeys.all, 'tickets'] as const,
  status: () => [...supportKeys.all, 'status'] as const,
};

/**
 * Sends the ticket as multipart form data. XMLHttpRequest rather than fetch, because only it
 * reports upload progress (attachments may be 10 MB each); failures are announced as the shared
 * client announces them (`announceFailure`). `asAccount`: sent by a signed-in user,
 * so a session that has ended since is refused (401 `session_expired`), not taken for a visitor.
 */
export function submitTicket(
  fields: SupportTicketFields,
  files: File[],
  onProgress: (percent: number) => void,
  { asAccount }: { asAccount: boolean },
): Promise<SupportTicketCreated> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== '') form.append(name, String(value));
  for (const file of files) form.append('attachments', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/v1/support/tickets');
    request.responseType = 'json';
    if (asAccount) request.setRequestHeader(TICKET_SENDER_HEADER, 'account');
    request.timeout = 5 * 60_000;
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('load', () => {
      const body = request.response as
        | (SupportTicketCreated & { error?: { code: string; message: string; fields?: Record<string, string> } })
        | null;
      if (request.status >= 200 && request.status < 300 && body) return resolve(body);
      // A 503 in our envelope with Retry-After is the server declining for now (too many uploads at once),
      // not a failure: its message says what to do, so it is shown rather than the server-error toast.
      const declined = request.status === 503 && isDeclined(request.getResponseHeader('retry-after'), body?.error?.message);
      const message =
        request.status >= 500 && !declined ? MESSAGES.serverError : (body?.error?.message ?? `Request failed (${request.status})`);
      // As the shared client would: a 401 logs out with the spec's toast, a 5xx shows the server-error toast.
      const announced = declined ? false : announceFailure(request.status);
      reject(new ApiError(request.status, body?.error?.code ?? String(request.status), message, body?.error?.fields, announced));
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'network', 'Network error: the ticket could not be sent.')));
    request.addEventListener('timeout', () => reject(new ApiError(0, 'timeout', 'The upload timed out. Please try again.')));
    request.send(form);
  });
}

/** A 503 that the server sent on purpose (its envelope, a Retry-After): "not now", with its own message. */
function isDeclined(retryAfter: string | null, message: string | undefined): boolean {
  return retryAfter !== null && typeof message === 'string' && message !== '';
}
