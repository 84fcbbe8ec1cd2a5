import { useEffect, useState } from 'react';
import { Button } from '~/components/ui/button';
import { loadSession, useAuth } from '~/lib/auth';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { confirmEmail, resendConfirmation, takePendingConfirmation } from '../api/email-verification';

/**
 * Above every dashboard page while the account's e-mail is unconfirmed: what to do, and a new
 * link on request. (Single sign-on accounts arrive confirmed by their provider; so does the demo.)
 */
export function ConfirmEmailBanner() {
  const { user } = useAuth();
  const [sending, setSending] = useState(false);
  const unconfirmed = user !== null && !user.verified;
  // A link opened while signed out (verify-email.tsx) is confirmed now that the account is signed in.
  useEffect(() => {
    if (!unconfirmed) return;
    const token = takePendingConfirmation();
    if (!token) return;
    confirmEmail(token).then(
      ({ message }) => {
        toast.success(message);
        void loadSession({ force: true });
      },
      (error: unknown) => toastFailure(error, 'Could not confirm your email address.'),
    );
  }, [unconfirmed]);
  if (!user || user.verified) return null;
  const resend = async () => {
    setSending(true);
    try {
      const { message } = await resendConfirmation();
      toast.success(message);
    } catch (error) {
      toastFailure(error, 'Could not send the link. Please try again.');
    } finally {
      setSending(false);
    }
  };
  return (
    <section
      aria-label="Confirm your email address"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-warning/40 bg-warning-soft px-4 py-3 text-sm"
    >
      <p>
        <strong className="font-medium">Please confirm your email address.</strong> We sent a link to{' '}
        <span className="font-medium break-all">{user.email}</span>. Until you confirm it, a password reset removes the account's keys.
      </p>
      <Button variant="secondary" size="sm" onClick={() => void resend()} disabled={sending}>
        {sending ? 'Sending…' : 'Send a new link'}
      </Button>
    </section>
  );
}
