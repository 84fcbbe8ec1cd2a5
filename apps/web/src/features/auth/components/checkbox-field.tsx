import type { ComponentProps, ReactNode } from 'react';

/** A native checkbox with its label beside it and an error tied to it. */
export function CheckboxField({
  id,
  label,
  error,
  ...input
}: Omit<ComponentProps<'input'>, 'type'> & { id: string; label: ReactNode; error?: string | undefined }) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-start gap-2.5">
        <input
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          {...input}
        />
        <label htmlFor={id} className="text-sm leading-5 text-muted-foreground">
          {label}
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
