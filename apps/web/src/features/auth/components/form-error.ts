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
