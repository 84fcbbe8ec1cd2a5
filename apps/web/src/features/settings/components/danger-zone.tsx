import type { PublicUser } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { DELETE_CONFIRMATION_WORD, REAUTHENTICATION_REQUIRED } from '@conductor/shared/schemas/settings';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '~/components/ui/dialog';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { fieldAria } from '~/components/ui/field';
import { ApiError } from '~/lib/api-client';
import { authStore, signOut } from '~/lib/auth';
import { useDeleteAccount } from '../api/settings';
import { SignInAgain } from './sign-in-again';
import { PasswordInput } from '~/features/auth/components/password-input';

/**
 * Sign out, and delete the account: the typed word, and the current password for accounts that sign in with one.
 * The shared demo account cannot be deleted: its button is disabled and the line beside it says why.
 */
export function DangerZone({ user }: { user: Pick<PublicUser, 'hasPassword' | 'isDemo' | 'oidcProvider'> }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  // Should the server ask for a password this page did not know of (set in another tab), the field appears then.
  const [serverAsksPassword, setServerAsksPassword] = useState(false);
  // A single sign-on account whose sign-in is not recent enough confirms by signing in again.
  const [signInAgain, setSignInAgain] = useState<string | null>(null);
  const asksPassword = user.hasPassword || serverAsksPassword;
  const remove = useDeleteAccount();
  // Every way out (Cancel, Escape, the close button, a press outside) leaves the dialog empty for next time.
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setTyped('');
      setPassword('');
      setPasswordError(null);
      setSignInAgain(null);
    }
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium">Sign out</p>
          <p className="text-sm text-muted-foreground">End this session on this device.</p>
        </div>
        <Button
          variant="secondary"
          onClick={async () => {
            await signOut();
            queryClient.clear();
            navigate('/');
          }}
        >
          <LogOut className="size-4" aria-hidden="true" /> Sign Out
        </Button>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
        <div>
          <p className="font-medium text-danger">Delete account</p>
          <p id="delete-account-description" className="text-sm text-muted-foreground">
            {user.isDemo
              ? DEMO_ACCOUNT_REFUSALS.deleteAccount
              : 'Permanently delete your account, usage history, API keys, provider keys and sessions. Your invoices are kept: we must keep billing records by law.'}
          </p>
        </div>
        <Dialog open={open} onOpenChange={onOpenChange}>
          <DialogTrigger asChild>
            <Button variant="destructive" disabled={user.isDemo} aria-describedby="delete-account-description">
              <Trash2 className="size-4" aria-hidden="true" /> Delete Account
            </Button>
          </DialogTrigger>
          <DialogContent role="alertdialog">
            <form
              className="space-y-4"
              onSubmit={async (event) => {
                event.preventDefault();
                try {
                  await remove.mutateAsync(asksPassword ? { confirmation: typed, currentPassword: password } : { confirmation: typed });
                  authStore.clear();
                  queryClient.clear();
                  toast.success('Your account has been deleted');
                  navigate('/');
                } catch (error) {
                  if (error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED) {
                    setSignInAgain(error.message);
                    return;
                  }
                  const onPassword = error instanceof ApiError ? error.fields?.currentPassword : undefined;
                  if (onPassword) {
                    setServerAsksPassword(true);
                    setPasswordError(onPassword);
                    requestAnimationFrame(() => document.getElementById('delete-password')?.focus());
                    return;
                  }
                  toastFailure(error, 'Could not delete your account.');
                }
              }}
            >
              <DialogHeader>
                <DialogTitle>Delete your account?</DialogTitle>
                <DialogDescription>
                  This cannot be undone. Your API keys stop working at once, every session is signed out, and your account, usage history
                  and provider keys are deleted. Your invoices are kept for our records, as the law requires. Usage over your plan’s quota
                  this month is invoiced when you delete the account, and that invoice is sent to your e-mail address.
                </DialogDescription>
              </DialogHeader>
              <div className="space-y-1.5">
                <Label htmlFor="delete-confirmation">
                  Type <span className="font-mono font-semibold">{DELETE_CONFIRMATION_WORD}</span> to confirm
                </Label>
                <Input id="delete-confirmation" autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
              </div>
              {asksPassword && (
                <div className="space-y-1.5">
                  <Label htmlFor="delete-password">Current password</Label>
                  <PasswordInput
                    {...fieldAria('delete-password', passwordError ?? undefined)}
                    autoComplete="current-password"
                    value={password}
                    onChange={(event) => {
                      setPassword(event.target.value);
                      setPasswordError(null);
                    }}
                  />
                  {passwordError && (
                    <p id="delete-password-error" role="alert" className="text-sm text-danger">
                      {passwordError}
                    </p>
                  )}
                </div>
              )}
              {signInAgain && (
                <div className="space-y-2" data-testid="delete-sign-in-again">
                  <p role="alert" className="text-sm text-danger">
                    {signInAgain}
                  </p>
                  <SignInAgain oidcProvider={user.oidcProvider} returnTo="/dashboard/settings#danger-zone" />
                </div>
              )}
              <DialogFooter>
                <Button variant="secondary" onClick={() => onOpenChange(false)}>
                  Cancel
                </Button>
                <Button
                  type="submit"
                  variant="destructive"
                  disabled={typed !== DELETE_CONFIRMATION_WORD || (asksPassword && password === '') || remove.isPending}
                >
                  {remove.isPending ? 'Deleting...' : 'Delete account'}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </div>
    </div>
  );
}
