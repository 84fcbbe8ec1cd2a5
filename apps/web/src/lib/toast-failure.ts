import { ApiError } from './api-client';
import { toast } from './toast';

/**
 * A failed action's toast: the error's message, or `fallback` for anything that is not an Error.
 * Nothing when the client already showed its own toast for it (a server error, an ended
 * session), so the user does not get the same news twice.
 */
export function toastFailure(error: unknown, fallback: string): void {
  if (wasAnnounced(error)) return;
  toast.error(error instanceof Error ? error.message : fallback);
}

/** The client already told the user about this failure (a server error, an ended session): no second toast. */
export function wasAnnounced(error: unknown): boolean {
  return error instanceof ApiError && error.announced;
}
