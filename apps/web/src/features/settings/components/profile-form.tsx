import type { PublicUser } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { EMAIL_CHANGE_NEEDS_PASSWORD, REAUTHENTICATION_REQUIRED, UpdateProfileInput } from '@conductor/shared/schemas/settings';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { ApiError } from '~/lib/api-client';
import { useUpdateProfile } from '../api/settings';
import { SignInAgain } from './sign-in-again';

/** The server compares addresses the same way: trimmed and ignoring letter case. */
const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function ProfileForm({ user }: { user: PublicUser }) {
  const update = useUpdateProfile();
  const form = useForm<UpdateProfileInput>({
    resolver: zodResolver(UpdateProfileInput),
    values: { name: user.name, email: user.email, currentPassword: '' },
  });
  // Accounts with a password are asked for it up front; should the server still ask (the account
  // set one in another tab since this page loaded), the field appears then.
  const [serverAsksPassword, setServerAsksPassword] = useState(false);
  // A single sign-on account whose sign-in is not recent enough confirms by signing in again.
  const [asksSignIn, setAsksSignIn] = useState(false);
  const email = useWatch({ control: form.control, name: 'email' }) ?? user.email;
  const asksPassword = !sameAddress(email, user.email) && (user.hasPassword || serverAsksPassword);
  const { errors, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, ...values }) => {
    if (asksPassword && !currentPassword) {
      form.setError('currentPassword', { message: EMAIL_CHANGE_NEEDS_PASSWORD }, { shouldFocus: true });
      return;
    }
    try {
      await update.mutateAsync(asksPassword ? { ...values, currentPassword } : values);
      toast.success('Profile saved');
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : undefined;
      if (error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED) setAsksSignIn(true);
      if (fields?.currentPassword) {
        setServerAsksPassword(true);
        form.setError('currentPassword', { message: fields.currentPassword }, { shouldFocus: true });
      } else if (fields?.email) form.setError('email', { message: fields.email }, { shouldFocus: true });
      else if (fields?.name) form.setError('name', { message: fields.name }, { shouldFocus: true });
      else toastFailure(error, 'Could not save your profile.');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {/* The shared demo account keeps its published name and e-mail: the fields are read-only and say why. */}
        <Field id="profile-name" label="Name" hint={user.isDemo ? DEMO_ACCOUNT_REFUSALS.name : undefined} error={errors.name?.message}>
          <Input
            {...fieldAria('profile-name', errors.name?.message, user.isDemo)}
            autoComplete="name"
            readOnly={user.isDemo}
            className={user.isDemo ? 'bg-muted text-muted-foreground' : undefined}
            {...form.register('name')}
          />
        </Field>
        <Field id="profile-email" label="Email" hint={user.isDemo ? DEMO_ACCOUNT_REFUSALS.email : undefined} error={errors.email?.message}>
          <Input
            {...fieldAria('profile-email', errors.email?.message, user.isDemo)}
            type="email"
            autoComplete="email"
            readOnly={user.isDemo}
            className={user.isDemo ? 'bg-muted text-muted-foreground' : undefined}
            {...form.register('email')}
          />
        </Field>
        {asksPassword && (
          <Field
            id="profile-current-password"
            label="Current password"
            hint="Needed to change the email you sign in with."
            error={errors.currentPassword?.message}
          >
            <Input
              {...fieldAria('profile-current-password', errors.currentPassword?.message, true)}
              type="password"
              autoComplete="current-password"
              {...form.register('currentPassword', { shouldUnregister: true })}
            />
          </Field>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={update.isPending || !isDirty || user.isDemo}>
          {update.isPending ? 'Saving...' : 'Save changes'}
        </Button>
        {asksSignIn && <SignInAgain oidcProvider={user.oidcProvider} returnTo="/dashboard/settings#profile" />}
      </div>
    </form>
  );
}
