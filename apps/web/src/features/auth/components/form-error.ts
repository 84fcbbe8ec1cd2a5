import { ApiError } from '~/lib/api-client';

/** Puts the server's field messages (400/409 `fields`) on the form, focusing the first; true when at least one was shown. */
export function showServerFieldErrors<Name extends string>(
  setError: (name: Name, message: string, focus: boolean) => void,
  error: unknown,
  names: Name[],
): boolean {
  const fields = error instanceof ApiError ? error.fields : undefined;
  if (!fields) return false;
  let shown = false;
  for (const name of names) {
    const message = fields[name];
    if (message) {
      setError(name, message, !shown);
      shown = true;
    }
  }
  return shown;
}

const NETWORK_FAILURE = 'Could not reach Conductor. Check your connection and try again.';

/**
 * For a request that never got an answer (status 0): the client's own time-out message, or ours
 * for a network failure (the browser's is "Failed to fetch"); undefined for any answered request.
 */
export function unansweredMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 0) return undefined;
  return error.code === 'timeout' ? error.message : NETWORK_FAILURE;
}
