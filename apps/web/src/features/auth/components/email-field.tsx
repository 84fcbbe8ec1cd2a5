import type { ComponentProps } from 'react';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';

/** The labelled e-mail field of the sign-in, sign-up and password-reset forms. */
export function EmailField({ id, error, ...props }: ComponentProps<'input'> & { id: string; error: string | undefined }) {
  return (
    <Field id={id} label="Email" error={error}>
      <Input {...fieldAria(id, error)} type="email" autoComplete="email" inputMode="email" placeholder="you@company.com" {...props} />
    </Field>
  );
}
