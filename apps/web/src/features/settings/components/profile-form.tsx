import type { PublicUser } from '@conductor/shared';
import { UpdateProfileInput } from '@conductor/shared/schemas/settings';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from '~/lib/toast';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { ApiError } from '~/lib/api-client';
import { useUpdateProfile } from '../api/settings';

export function ProfileForm({ user }: { user: PublicUser }) {
  const update = useUpdateProfile();
  const form = useForm<UpdateProfileInput>({ resolver: zodResolver(UpdateProfileInput), values: { name: user.name, email: user.email } });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast.success('Profile saved');
    } catch (error) {
      if (error instanceof ApiError && error.fields?.email) form.setError('email', { message: error.fields.email });
      else toast.error(error instanceof Error ? error.message : 'Could not save your profile.');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="profile-name" label="Name" error={errors.name?.message}>
          <Input {...fieldAria('profile-name', errors.name?.message)} autoComplete="name" {...form.register('name')} />
        </Field>
        <Field id="profile-email" label="Email" error={errors.email?.message}>
          <Input {...fieldAria('profile-email', errors.email?.message)} type="email" autoComplete="email" {...form.register('email')} />
        </Field>
      </div>
      <Button type="submit" disabled={update.isPending || !isDirty}>
        {update.isPending ? 'Saving...' : 'Save changes'}
      </Button>
    </form>
  );
}
