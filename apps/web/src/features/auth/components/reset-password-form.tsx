import { ResetPasswordForm as ResetPasswordSchema, type ResetPasswordFormValues } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { ApiError } from '~/lib/api-client';
import { resetPassword } from '../api/password-reset';
import { showServerFieldErrors } from './form-error';
import { PasswordInput } from './password-input';

function LinkProblem({ message }: { message: string }) {
  return (
    <div className="space-y-4">
      <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-sm text-danger">
        {message}
      </p>
      <Link to="/forgot-password" className="inline-block text-sm font-medium text-primary hover:underline">
        Request a new link
      </Link>
    </div>
  );
}

export function ResetPasswordForm({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : AUTH_COPY.resetMissingToken);
  const form = useForm<ResetPasswordFormValues>({
    resolver: zodResolver(ResetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    if (!token) return;
    try {
      const { message } = await resetPassword(token, password);
      toast.success(message);
      navigate('/login', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status >= 500) return;
      if (showServerFieldErrors(form, error, ['password'])) return;
      if (error instanceof ApiError && error.status === 400) setLinkProblem(AUTH_COPY.resetInvalid);
      else toast.error(error instanceof Error ? error.message : AUTH_COPY.resetInvalid);
    }
  });

  if (linkProblem) return <LinkProblem message={linkProblem} />;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Choose a new password">
      <Field id="reset-password" label="New password" error={errors.password?.message}>
        <PasswordInput
          {...fieldAria('reset-password', errors.password?.message)}
          autoComplete="new-password"
          {...form.register('password')}
        />
      </Field>
      <Field id="reset-confirm" label="Confirm new password" error={errors.confirmPassword?.message}>
        <PasswordInput
          {...fieldAria('reset-confirm', errors.confirmPassword?.message)}
          autoComplete="new-password"
          {...form.register('confirmPassword')}
        />
      </Field>
      <p className="text-xs text-muted-foreground">
        At least 8 characters, with an uppercase letter, a lowercase letter and a number. You will be signed out on every other device.
      </p>
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Resetting...' : 'Reset password'}
      </Button>
    </form>
  );
}
