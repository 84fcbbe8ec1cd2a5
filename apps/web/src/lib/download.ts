import { TIMEOUTS_MS } from '@conductor/shared/constants/limits';
import { ApiError, announceFailure } from './api-client';
import { loadMessages } from './messages';

/** The file name a `content-disposition: attachment; filename="…"` header gives, or null. */
export function attachmentFilename(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // Not valid percent-encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? name : null;
}

/**
 * Downloads a file the portal serves (an invoice, a usage export) and saves it under the name the
 * server gives. Fetched first rather than followed as a link: a failed answer would otherwise be
 * saved as the file (a JSON error body), with nothing said. A failure is handled as the API
 * client handles one (a 401 logs out with the spec's toast, a 5xx shows the server-error toast)
 * and thrown as an `ApiError` (`announced` when the user was already told).
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  // The time-out covers the wait for the answer, not the file's transfer (a large export on a slow
  // connection may take longer, and shows in the browser's own download progress meanwhile).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUTS_MS.authenticatedClient);
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) throw new ApiError(0, 'timeout', 'The request timed out. Please try again.');
    throw new ApiError(0, 'network', error instanceof Error ? error.message : 'Network error');
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    const announced = announceFailure(response.status);
    throw new ApiError(
      response.status,
      body.error?.code ?? String(response.status),
      response.status >= 500 ? (await loadMessages()).serverError : (body.error?.message ?? response.statusText),
      undefined,
      announced,
    );
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    throw new ApiError(0, 'network', error instanceof Error ? error.message : 'Network error');
  }
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = attachmentFilename(response.headers.get('content-disposition')) ?? fallbackName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked once the browser has taken the file (a revoke in the same task can cancel the download).
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  }
}
