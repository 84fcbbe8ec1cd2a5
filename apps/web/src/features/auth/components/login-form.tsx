import { MESSAGES } from '@conductor/shared/constants/messages';
import type { LoginRequest } from '@conductor/shared/schemas/auth';
import { Link, useNavigate } from 'react-router';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { ApiError } from '~/lib/api-client';
import { wasAnnounced } from '~/lib/toast-failure';
import { authStore } from '~/lib/auth';
import { usePublicQuery } from '~/lib/public-query';
import { toast } from '~/lib/toast';
import { useSchemaForm } from '~/lib/use-schema-form';
import { login } from '../api/login';
import { signInDestination } from '~/lib/next-path';
import { providersQueryOptions } from '../api/sso';
import { CheckboxField } from './checkbox-field';
import { DemoCredentials } from './demo-credentials';
import { EmailField } from './email-field';
import { unansweredMessage } from './form-error';
import { PasswordInput } from './password-input';

/** The shared schema (and zod with it) loads when the form is first used, not with the page. */
const loadSchema = () => import('@conductor/shared/schemas/auth').then((module) => module.LoginRequest);
const DEFAULT_VALUES = { email: '', password: '', remember: false };

/**
 * Throttled sign-ins say how long to wait, and a request that never got an answer (status 0) says
 * so rather than blaming the credentials; every other failure stays the spec's neutral message.
 */
function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return MESSAGES.login.failure;
  if (error.status === 429) return error.message;
  return unansweredMessage(error) ?? MESSAGES.login.failure;
}

export function LoginForm() {
  const navigate = useNavigate();
  const options = usePublicQuery(providersQueryOptions);
  const form = useSchemaForm<typeof DEFAULT_VALUES, LoginRequest>({ schema: loadSchema, defaultValues: DEFAULT_VALUES });
  const { errors, isSubmitting } = form;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await login(values);
      authStore.signedIn(user);
      toast.success(MESSAGES.login.success);
      // Back to the dashboard page that sent the visitor here, else the overview; the dashboard
      // sends a user who has not finished onboarding there first.
      navigate(signInDestination(window.location.search));
    } catch (error) {
      // Ready for another try: the password is what most often needs retyping.
      form.setFocus('password');
      if (wasAnnounced(error)) return; // The client already showed the server-error toast.
      toast.error(failureMessage(error));
    }
  });

  const fill = (credentials: { email: string; password: string }) => {
    form.setValue('email', credentials.email);
    form.setValue('password', credentials.password);
    form.setFocus('password');
  };

  return (
    <div className="space-y-6">
      {options.data?.demoAccount !== false && <DemoCredentials onUse={fill} />}
      <form onSubmit={onSubmit} onFocus={() => void form.preload()} noValidate className="space-y-4" aria-label="Sign in">
        <EmailField id="login-email" error={errors.email} {...form.register('email')} />
        <Field id="login-password" label="Password" error={errors.password}>
          <PasswordInput {...fieldAria('login-password', errors.password)} autoComplete="current-password" {...form.register('password')} />
        </Field>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CheckboxField id="login-remember" label="Remember me for 30 days" {...form.register('remember')} />
          <Link to="/forgot-password" className="rounded-sm text-sm font-medium text-primary hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? MESSAGES.login.submitting : 'Sign In'}
        </Button>
      </form>
    </div>
  );
}
