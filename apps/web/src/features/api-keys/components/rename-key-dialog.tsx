import { UpdateApiKeyInput } from '@conductor/shared/schemas/api-keys';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '~/components/ui/dialog';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { useRenameApiKey } from '../api/api-keys';
import type { KeyDialogProps } from './key-dialog-props';

export function RenameKeyDialog({ apiKey, onClose, onCloseAutoFocus }: KeyDialogProps) {
  const rename = useRenameApiKey();
  const form = useForm<UpdateApiKeyInput>({ resolver: zodResolver(UpdateApiKeyInput), values: { name: apiKey?.name ?? '' } });
  const error = form.formState.errors.name?.message;
  const onSubmit = form.handleSubmit(async ({ name }) => {
    if (!apiKey) return;
    try {
      await rename.mutateAsync({ id: apiKey.id, name });
      toast.success('API key renamed');
      onClose();
    } catch (failure) {
      toastFailure(failure, 'Could not rename the key.');
    }
  });
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          <DialogHeader>
            <DialogTitle>Edit API key</DialogTitle>
            <DialogDescription>{apiKey?.masked}</DialogDescription>
          </DialogHeader>
          <Field id="rename-key" label="Key name" error={error}>
            <Input {...fieldAria('rename-key', error)} autoComplete="off" {...form.register('name')} />
          </Field>
          <DialogFooter>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={rename.isPending}>
              {rename.isPending ? 'Saving...' : 'Save'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
