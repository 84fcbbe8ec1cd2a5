import { MESSAGES, RegisterForm as RegisterFormSchema, type RegisterFormOutput, type RegisterFormValues } from '@conductor/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { ApiError } from '~/lib/api-client';
import { authStore } from '~/lib/auth';
import { register } from '../api/register';
import { CheckboxField } from './checkbox-field';
import { showServerFieldErrors } from './form-error';
import { PasswordInput } from './password-input';

export function RegisterForm() {
  const navigate = useNavigate();
  const form = useForm<RegisterFormValues, unknown, RegisterFormOutput>({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: { name: '', email: '', password: '', confirmPassword: '', acceptTerms: false },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await register(values);
      authStore.signedIn(user);
      toast.success(MESSAGES.register.success, { description: MESSAGES.register.welcome });
      navigate('/onboarding');
    } catch (error) {
      if (error instanceof ApiError && error.status >= 500) return; // The client already showed the server-error toast.
      // A field-level reason (taken e-mail, common password) shows under its field; anything else in the toast.
      const onField = showServerFieldErrors(form, error, ['name', 'email', 'password']);
      const detail = !onField && error instanceof ApiError && error.status !== 0 ? error.message : undefined;
      toast.error(MESSAGES.register.failure, detail ? { description: detail } : {});
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Create your account">
      <Field id="register-name" label="Full name" error={errors.name?.message}>
        <Input
          {...fieldAria('register-name', errors.name?.message)}
          autoComplete="name"
          placeholder="Ada Lovelace"
          {...form.register('name')}
        />
      </Field>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('register-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@company.com"
          {...form.register('email')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="register-password" label="Password" error={errors.password?.message}>
          <PasswordInput
            {...fieldAria('register-password', errors.password?.message)}
            autoComplete="new-password"
            {...form.register('password')}
          />
        </Field>
        <Field id="register-confirm" label="Confirm password" error={errors.confirmPassword?.message}>
          <PasswordInput
            {...fieldAria('register-confirm', errors.confirmPassword?.message)}
            autoComplete="new-password"
            {...form.register('confirmPassword')}
          />
        </Field>
      </div>
      <p className="text-xs text-muted-foreground">At least 8 characters, with an uppercase letter, a lowercase letter and a number.</p>
      <CheckboxField
        id="register-terms"
        error={errors.acceptTerms?.message}
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
