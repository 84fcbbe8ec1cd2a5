import type { ResetPasswordFormValues } from '@conductor/shared/schemas/auth';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { ApiError } from '~/lib/api-client';
import { wasAnnounced } from '~/lib/toast-failure';
import { toast } from '~/lib/toast';
import { useSchemaForm } from '~/lib/use-schema-form';
import { checkResetLink, resetPassword } from '../api/password-reset';
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

/** The shared schema (and zod with it) loads when the form is first used, not with the page. */
const loadSchema = () => import('@conductor/shared/schemas/auth').then((module) => module.ResetPasswordForm);
const DEFAULT_VALUES = { password: '', confirmPassword: '' };

export function ResetPasswordForm({ token }: { token: string | null }) {
  const navigate = useNavigate();
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : AUTH_COPY.resetMissingToken);
  const form = useSchemaForm<typeof DEFAULT_VALUES, ResetPasswordFormValues>({ schema: loadSchema, defaultValues: DEFAULT_VALUES });
  const { errors, isSubmitting } = form;

  // A link already used or expired says so when the page opens, not after a new password is typed
  // twice. Any other failure (network, throttling) leaves the form: submitting gives the answer.
  useEffect(() => {
    if (!token) return;
    let current = true;
    checkResetLink(token).catch((error: unknown) => {
      if (current && error instanceof ApiError && error.status === 400) setLinkProblem(AUTH_COPY.resetInvalid);
    });
    return () => {
      current = false;
    };
  }, [token]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    if (!token) return;
    try {
      const { message } = await resetPassword(token, password);
      toast.success(message);
      navigate('/login', { replace: true });
    } catch (error) {
      if (wasAnnounced(error)) return;
      if (showServerFieldErrors(form.setError, error, ['password'])) return;
      if (error instanceof ApiError && error.status === 400) setLinkProblem(AUTH_COPY.resetInvalid);
      else toast.error(error instanceof Error ? error.message : AUTH_COPY.resetInvalid);
    }
  });

  if (linkProblem) return <LinkProblem message={linkProblem} />;

  return (
    <form onSubmit={onSubmit} onFocus={() => void form.preload()} noValidate className="space-y-4" aria-label="Choose a new password">
      <Field id="reset-password" label="New password" error={errors.password}>
        <PasswordInput {...fieldAria('reset-password', errors.password)} autoComplete="new-password" {...form.register('password')} />
      </Field>
      <Field id="reset-confirm" label="Confirm new password" error={errors.confirmPassword}>
        <PasswordInput
          {...fieldAria('reset-confirm', errors.confirmPassword)}
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
