import { PLANS, type PlanId } from '@conductor/shared';
import type { BillingOverview, BillingPeriod, ProrationPreview } from '@conductor/shared/schemas/billing';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '~/components/ui/dialog';
import { cn } from '~/lib/cn';
import { formatCents, formatLastDay, formatNumber, formatUtcDate } from '~/lib/format';
import { previewPlanChange, useChangePlan } from '../api/billing';
import { requestedChange } from '../lib/plan-request';

function priceLabel(planId: PlanId, period: BillingPeriod): string {
  const plan = PLANS.find((candidate) => candidate.id === planId);
  if (!plan || plan.price.monthly === 0) return '$0';
  return period === 'monthly' ? `$${formatNumber(plan.price.monthly)}/month` : `$${formatNumber(plan.price.yearly)}/year`;
}

/** Every paid plan's trial is the same length (a test of the plans holds it), so Billing names it before a plan is chosen. */
export const TRIAL_DAYS = PLANS.find((candidate) => candidate.id === 'pro')?.trialDays;
const planNameOf = (planId: PlanId) => PLANS.find((candidate) => candidate.id === planId)?.name ?? planId;

/** What follows a free trial: its end, the plan's price, and the first invoice (a monthly plan's is the rest of that month). */
function TrialTerms({ preview, trial }: { preview: ProrationPreview; trial: NonNullable<ProrationPreview['trial']> }) {
  const ends = formatUtcDate(trial.endsAt);
  return (
    <p className="text-xs text-muted-foreground" data-testid="trial-terms">
      Free trial until {ends}: nothing is billed for {planNameOf(preview.toPlan)} before then, and if you cancel first, nothing for the plan
      at all. Then it is {priceLabel(preview.toPlan, preview.toPeriod)}; the first invoice, on {ends}, is{' '}
      {formatCents(trial.firstInvoiceCents)}
      {preview.toPeriod === 'monthly' ? ' for the rest of that month' : ' for a year'}.
      {PLANS.find((candidate) => candidate.id === preview.toPlan)?.tokensPerMonth != null &&
        ' Tokens over its quota, in the trial too, are billed as usual.'}
    </p>
  );
}

function ProrationSummary({ preview, endsTrial, cancels }: { preview: ProrationPreview; endsTrial: boolean; cancels: boolean }) {
  return (
    <div className="space-y-3 rounded-md border border-border p-4 text-sm" data-testid="proration-preview">
      <ul className="space-y-2">
        {preview.lines.map((line) => (
          <li key={line.description} className="flex justify-between gap-4">
            <span className="text-muted-foreground">{line.description}</span>
            <span className="tabular-nums">{formatCents(line.amountCents)}</span>
          </li>
        ))}
        {preview.lines.length === 0 && <li className="text-muted-foreground">Nothing to charge or credit.</li>}
      </ul>
      <div className="flex justify-between gap-4 border-t border-border pt-3 font-semibold">
        <span>
          {preview.totalCents >= 0 ? 'Due now' : 'Credit'}
          {/* A full year that starts now, from Free, is charged in full: not "(prorated)". */}
          {preview.prorated && ' (prorated)'}
        </span>
        <span className="tabular-nums">{formatCents(Math.abs(preview.totalCents))}</span>
      </div>
      {preview.trial ? (
        <TrialTerms preview={preview} trial={preview.trial} />
      ) : (
        <p className="text-xs text-muted-foreground">
          Takes effect immediately.{endsTrial && ' Your free trial ends now and cannot be started again.'} Your period runs to{' '}
          {formatLastDay(preview.periodEnd)}.{preview.totalCents > 0 && ' With no card on file, the invoice stays open until paid.'}
        </p>
      )}
      {preview.overageCents > 0 && (
        <p className="text-xs text-muted-foreground" data-testid="overage-terms">
          Overage is billed as metered when you confirm: tokens used over the quota until then are added to it.
        </p>
      )}
      {cancels && (
        <p className="text-xs text-muted-foreground" data-testid="cancellation-kept">
          Your subscription is still set to cancel: {planNameOf(preview.toPlan)} ends {formatLastDay(preview.periodEnd)} and moves to the
          Free plan, unless you resume it.
        </p>
      )}
    </div>
  );
}

/**
 * Choose a plan and period, see the prorated amount, then confirm. Opened by a `?plan=` in the
 * address (see `requestedChange`) with that plan and period chosen and its amounts shown; the
 * query then leaves the address, so a reload does not open it again.
 */
export function ChangePlanDialog({ billing }: { billing: BillingOverview }) {
  const [open, setOpen] = useState(false);
  const [plan, setPlan] = useState<PlanId>(billing.plan === 'pro' ? 'enterprise' : 'pro');
  const [period, setPeriod] = useState<BillingPeriod>(billing.period);
  const preview = useMutation({ mutationFn: previewPlanChange });
  const change = useChangePlan();
  // Why the amounts were worked out again (the amount shown was no longer the amount).
  const [requoted, setRequoted] = useState<string | null>(null);
  const openRef = useRef(open);
  openRef.current = open;
  const busy = preview.isPending || change.isPending;
  const effectivePeriod = plan === 'free' ? 'monthly' : period;
  const isCurrent = billing.plan === plan && billing.period === effectivePeriod;

  const [query, setQuery] = useSearchParams();
  const requested = requestedChange(query, billing.period);
  const previewNow = useRef(preview.mutate);
  previewNow.current = preview.mutate;
  // biome-ignore lint/correctness/useExhaustiveDependencies: acts once per request in the address, then removes it
  useEffect(() => {
    if (!query.has('plan')) return;
    setQuery(
      (current) => {
        const rest = new URLSearchParams(current);
        rest.delete('plan');
        rest.delete('period');
        return rest;
      },
      { replace: true },
    );
    if (!requested) return;
    setPlan(requested.plan);
    setPeriod(requested.period);
    setOpen(true);
    const toPeriod = requested.plan === 'free' ? 'monthly' : requested.period;
    if (billing.plan !== requested.plan || billing.period !== toPeriod) previewNow.current({ plan: requested.plan, period: toPeriod });
  }, [query]);

  const reset = () => {
    preview.reset();
    change.reset();
    setRequoted(null);
  };
  const choose = () => {
    preview.reset();
    setRequoted(null);
  };
  // Every way out (Cancel, Escape, the close button) forgets the quote: reopened, the dialog starts over.
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) reset();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Change plan</Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Change plan</DialogTitle>
          <DialogDescription>
            {billing.trialEndsAt
              ? `You are in your free trial: a change of paid plan or period costs nothing until it ends on ${formatUtcDate(billing.trialEndsAt)}, and a move to Free ends it.`
              : `${billing.trialAvailable ? `Your first paid plan starts with a ${TRIAL_DAYS}-day free trial: nothing is billed until it ends. ` : ''}Changes take effect at once: unused time on your plan is credited, and a part of a period is charged pro rata.`}
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-4">
          <div role="radiogroup" aria-label="Billing period" className="inline-flex rounded-md border border-border p-1 text-sm">
            {(['monthly', 'yearly'] as const).map((value) => (
              // biome-ignore lint/a11y/useSemanticElements: a segmented control styled as buttons
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={period === value}
                disabled={busy}
                className={cn(
                  'rounded px-3 py-1 capitalize',
                  period === value ? 'bg-primary text-primary-foreground' : 'text-muted-foreground',
                )}
                onClick={() => {
                  setPeriod(value);
                  choose();
                }}
              >
                {value}
              </button>
            ))}
          </div>
          <fieldset className="grid gap-2 sm:grid-cols-3">
            <legend className="sr-only">Plan</legend>
            {PLANS.map((candidate) => (
              <label
                key={candidate.id}
                className="flex cursor-pointer flex-col gap-1 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
              >
                <span className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="plan"
                    value={candidate.id}
                    checked={plan === candidate.id}
                    disabled={busy}
                    onChange={() => {
                      setPlan(candidate.id);
                      choose();
                    }}
                    className="accent-[var(--primary)]"
                  />
                  <span className="font-medium">{candidate.name}</span>
                </span>
                <span className="text-muted-foreground">{priceLabel(candidate.id, candidate.id === 'free' ? 'monthly' : period)}</span>
                {billing.plan === candidate.id && <span className="text-xs text-primary">Current plan</span>}
              </label>
            ))}
          </fieldset>
          {preview.data && (
            <ProrationSummary
              preview={preview.data}
              endsTrial={billing.trialEndsAt !== null && preview.data.trial === null}
              // A pending cancellation outlives a change between paid plans (the server keeps it).
              cancels={billing.cancelAtPeriodEnd && preview.data.toPlan !== 'free'}
            />
          )}
          {requoted && preview.data && (
            <p role="status" className="text-sm text-muted-foreground" data-testid="requoted">
              {requoted} The amounts above are up to date.
            </p>
          )}
          {preview.isError && (
            <p role="alert" className="text-sm text-danger">
              {preview.error.message}
            </p>
          )}
          {/* Kept in view at the dialog's foot while its content scrolls (a phone with the preview open). */}
          <DialogFooter className="sticky bottom-0 -mx-6 border-t border-border bg-card px-6 pt-3 shadow-[0_1.5rem_0_0_var(--color-card)]">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            {preview.data ? (
              <Button
                disabled={change.isPending}
                onClick={async () => {
                  const shown = preview.data;
                  if (!shown) return;
                  // What was previewed, at the amount shown: the server refuses any other amount.
                  const previewed = { plan: shown.toPlan, period: shown.toPeriod };
                  try {
                    await change.mutateAsync({
                      ...previewed,
                      expectedTotalCents: shown.totalCents,
                      expectedOverageCents: shown.overageCents,
                    });
                    toast.success(
                      shown.trial && !billing.trialEndsAt
                        ? `Your ${planNameOf(shown.toPlan)} free trial has started: nothing is billed until ${formatUtcDate(shown.trial.endsAt)}`
                        : `You are now on the ${planNameOf(shown.toPlan)} plan`,
                    );
                    setOpen(false);
                    reset();
                  } catch (error) {
                    if (error instanceof ApiError && error.code === 'quote_expired') {
                      if (!openRef.current) return; // closed meanwhile
                      // Time or usage moved the amount since the preview: show what it costs now, to confirm again.
                      setRequoted(error.message);
                      preview.mutate(previewed);
                      return;
                    }
                    toastFailure(error, 'Could not change the plan.');
                  }
                }}
              >
                {change.isPending ? 'Changing...' : 'Confirm change'}
              </Button>
            ) : (
              <Button
                disabled={isCurrent || preview.isPending}
                onClick={() => {
                  setRequoted(null);
                  preview.mutate({ plan, period: effectivePeriod });
                }}
              >
                {preview.isPending ? 'Calculating...' : 'Review change'}
              </Button>
            )}
          </DialogFooter>
        </div>
      </DialogContent>
    </Dialog>
  );
}
