import type { ForgotPasswordRequest } from '@conductor/shared/schemas/auth';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { toastFailure } from '~/lib/toast-failure';
import { useSchemaForm } from '~/lib/use-schema-form';
import { requestPasswordReset } from '../api/password-reset';
import { EmailField } from './email-field';

/** The shared schema (and zod with it) loads when the form is first used, not with the page. */
const loadSchema = () => import('@conductor/shared/schemas/auth').then((module) => module.ForgotPasswordRequest);
const DEFAULT_VALUES = { email: '' };

export function ForgotPasswordForm() {
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const form = useSchemaForm<typeof DEFAULT_VALUES, ForgotPasswordRequest>({ schema: loadSchema, defaultValues: DEFAULT_VALUES });
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      const { message } = await requestPasswordReset(email);
      setSent({ email, message });
    } catch (error) {
      toastFailure(error, 'Could not send the reset link. Please try again.');
    }
  });

  if (sent) {
    return (
      <div className="space-y-4" role="status">
        <div className="flex gap-3 rounded-lg border border-border bg-success-soft p-4 text-sm">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
          <div>
            <p className="font-medium">Check your inbox</p>
            <p className="mt-1 text-muted-foreground">{sent.message}</p>
            <p className="mt-1 break-all text-muted-foreground">Sent to {sent.email}.</p>
          </div>
        </div>
        <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          <Link to="/login" className="font-medium text-primary hover:underline">
            Back to sign in
          </Link>
          <button type="button" className="font-medium text-primary hover:underline" onClick={() => setSent(null)}>
            Use another email
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      onSubmit={onSubmit}
      onFocus={() => void form.preload()}
      noValidate
      className="space-y-4"
      aria-label="Request a password reset link"
    >
      <EmailField id="forgot-email" error={errors.email} {...form.register('email')} />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send reset link'}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Remembered it?{' '}
        <Link to="/login" className="font-medium text-primary hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
