import type { BillingOverview } from '@conductor/shared/schemas/billing';
import { useState } from 'react';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '~/components/ui/dialog';
import { formatLastDay, formatUtcDate } from '~/lib/format';
import { useCancelSubscription, useResumeSubscription } from '../api/billing';

/** Cancel at period end (with confirmation), or undo a pending cancellation. */
export function CancelSubscription({ billing }: { billing: BillingOverview }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  if (billing.cancelAtPeriodEnd) {
    return (
      <Button
        variant="secondary"
        disabled={resume.isPending}
        onClick={async () => {
          try {
            await resume.mutateAsync();
            toast.success(
              billing.trialEndsAt
                ? `Your free trial goes on: the first invoice comes on ${formatUtcDate(billing.trialEndsAt)}`
                : 'Your subscription will renew as usual',
            );
          } catch (error) {
            toastFailure(error, 'Could not resume the subscription.');
          }
        }}
      >
        {resume.isPending ? 'Resuming...' : 'Resume subscription'}
      </Button>
    );
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="secondary">Cancel subscription</Button>
      </DialogTrigger>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>Cancel your {billing.planName} subscription?</DialogTitle>
          <DialogDescription>
            You keep {billing.planName} until {formatLastDay(billing.currentPeriodEnd)}, then move to the Free plan.
            {billing.trialEndsAt && ` That is the end of your free trial: nothing is billed for ${billing.planName}.`} You can resume any
            time before then.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep subscription
          </Button>
          <Button
            variant="destructive"
            disabled={cancel.isPending}
            onClick={async () => {
              try {
                await cancel.mutateAsync();
                toast.success(`Subscription cancelled. ${billing.planName} stays active until ${formatLastDay(billing.currentPeriodEnd)}.`);
                setOpen(false);
              } catch (error) {
                toastFailure(error, 'Could not cancel the subscription.');
              }
            }}
          >
            {cancel.isPending ? 'Cancelling...' : 'Cancel subscription'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
