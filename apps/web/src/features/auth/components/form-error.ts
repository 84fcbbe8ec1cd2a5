import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '~/lib/api-client';

/** Puts the server's field messages (400/409 `fields`) on the form; true when at least one was shown. */
export function showServerFieldErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
  names: Path<T>[],
): boolean {
  const fields = error instanceof ApiError ? error.fields : undefined;
  if (!fields) return false;
  let shown = false;
  for (const name of names) {
    const message = fields[name];
    if (message) {
      form.setError(name, { message }, { shouldFocus: !shown });
      shown = true;
    }
  }
  return shown;
}
