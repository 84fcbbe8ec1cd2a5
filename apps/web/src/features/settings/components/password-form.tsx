import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { ChangePasswordInput, PASSWORD_CHANGED } from '@conductor/shared/schemas/settings';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { ApiError } from '~/lib/api-client';
import { useChangePassword } from '../api/settings';

const FIELDS = [
  ['currentPassword', 'Current password', 'current-password'],
  ['newPassword', 'New password', 'new-password'],
  ['confirmPassword', 'Confirm new password', 'new-password'],
] as const;

export function PasswordForm({ hasPassword, isDemo = false }: { hasPassword: boolean; isDemo?: boolean }) {
  const change = useChangePassword();
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(ChangePasswordInput),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  if (isDemo) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="demo-password">
        {DEMO_ACCOUNT_REFUSALS.password}
      </p>
    );
  }
  if (!hasPassword) {
    return <p className="text-sm text-muted-foreground">You sign in with single sign-on, so your account has no password to change.</p>;
  }
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      form.reset();
      toast.success(PASSWORD_CHANGED);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : undefined;
      if (fields?.currentPassword) form.setError('currentPassword', { message: fields.currentPassword });
      else if (fields?.newPassword) form.setError('newPassword', { message: fields.newPassword });
      else toastFailure(error, 'Could not change your password.');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        {FIELDS.map(([name, label, autoComplete]) => {
          const id = `password-${name}`;
          const error = errors[name]?.message;
          return (
            <Field key={name} id={id} label={label} error={error}>
              <Input {...fieldAria(id, error)} type="password" autoComplete={autoComplete} {...form.register(name)} />
            </Field>
          );
        })}
      </div>
      <p className="text-xs text-muted-foreground">At least 8 characters, with an uppercase letter, a lowercase letter and a number.</p>
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? 'Updating...' : 'Update password'}
      </Button>
    </form>
  );
}
