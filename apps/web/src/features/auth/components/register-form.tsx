import { MESSAGES } from '@conductor/shared/constants/messages';
import type { RegisterFormOutput } from '@conductor/shared/schemas/auth';
import { Link, useNavigate } from 'react-router';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { ApiError } from '~/lib/api-client';
import { wasAnnounced } from '~/lib/toast-failure';
import { authStore } from '~/lib/auth';
import { toast } from '~/lib/toast';
import { useSchemaForm } from '~/lib/use-schema-form';
import { register } from '../api/register';
import { nextPage, withNext } from '~/lib/next-path';
import { CheckboxField } from './checkbox-field';
import { showServerFieldErrors, unansweredMessage } from './form-error';
import { EmailField } from './email-field';
import { PasswordInput } from './password-input';

/** The shared schema (and zod with it) loads when the form is first used, not with the page. */
const loadSchema = () => import('@conductor/shared/schemas/auth').then((module) => module.RegisterForm);
const DEFAULT_VALUES = { name: '', email: '', password: '', confirmPassword: '', acceptTerms: false };

export function RegisterForm() {
  const navigate = useNavigate();
  const form = useSchemaForm<typeof DEFAULT_VALUES, RegisterFormOutput>({ schema: loadSchema, defaultValues: DEFAULT_VALUES });
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await register(values);
      authStore.signedIn(user);
      toast.success(MESSAGES.register.success, { description: MESSAGES.register.welcome });
      // Onboarding first (spec), then the page the visitor came for (a plan chosen on the pricing page).
      navigate(withNext('/onboarding', nextPage(window.location.search)));
    } catch (error) {
      if (wasAnnounced(error)) return; // The client already showed the server-error toast.
      // A field-level reason (taken e-mail, common password) shows under its field; anything else in the toast.
      const onField = showServerFieldErrors(form.setError, error, ['name', 'email', 'password']);
      // A request that got no answer says so (a time-out, or the network), not a generic failure.
      const detail = onField ? undefined : (unansweredMessage(error) ?? (error instanceof ApiError ? error.message : undefined));
      toast.error(MESSAGES.register.failure, detail ? { description: detail } : {});
    }
  });

  return (
    <form onSubmit={onSubmit} onFocus={() => void form.preload()} noValidate className="space-y-4" aria-label="Create your account">
      <Field id="register-name" label="Full name" error={errors.name}>
        <Input {...fieldAria('register-name', errors.name)} autoComplete="name" placeholder="Ada Lovelace" {...form.register('name')} />
      </Field>
      <EmailField id="register-email" error={errors.email} {...form.register('email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="register-password" label="Password" error={errors.password}>
          <PasswordInput {...fieldAria('register-password', errors.password)} autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field id="register-confirm" label="Confirm password" error={errors.confirmPassword}>
          <PasswordInput
            {...fieldAria('register-confirm', errors.confirmPassword)}
            autoComplete="new-password"
            {...form.register('confirmPassword')}
          />
        </Field>
      </div>
      <p className="text-xs text-muted-foreground">At least 8 characters, with an uppercase letter, a lowercase letter and a number.</p>
      <CheckboxField
        id="register-terms"
        error={errors.acceptTerms}
        label={
          <>
            I agree to the{' '}
            <Link to="/terms" className="font-medium text-primary hover:underline">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to="/privacy" className="font-medium text-primary hover:underline">
              Privacy Policy
            </Link>
          </>
        }
        {...form.register('acceptTerms')}
      />
      <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
