import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '~/components/ui/dialog';
import { useRevokeApiKey } from '../api/api-keys';
import type { KeyDialogProps } from './key-dialog-props';

export function RevokeKeyDialog({ apiKey, onClose, onCloseAutoFocus }: KeyDialogProps) {
  const revoke = useRevokeApiKey();
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent role="alertdialog" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Revoke “{apiKey?.name}”?</DialogTitle>
          <DialogDescription>
            Requests using {apiKey?.masked} will be refused immediately. This cannot be undone; create a new key if you need one.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={revoke.isPending}
            onClick={async () => {
              if (!apiKey) return;
              try {
                await revoke.mutateAsync(apiKey.id);
                toast.success(`API key "${apiKey.name}" revoked`);
                onClose();
              } catch (error) {
                toastFailure(error, 'Could not revoke the key.');
              }
            }}
          >
            {revoke.isPending ? 'Revoking...' : 'Revoke key'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
