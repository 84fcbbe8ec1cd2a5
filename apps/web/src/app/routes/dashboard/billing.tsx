import { OVERAGE_USD_PER_1K_TOKENS } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { useQuery } from '@tanstack/react-query';
import { CreditCard, FileText } from 'lucide-react';
import { DashboardPage } from '~/components/layouts/dashboard-page';
import { Badge } from '~/components/ui/badge';
import { Card } from '~/components/ui/card';
import { Skeleton } from '~/components/ui/skeleton';
import { EmptyState, ErrorState } from '~/components/ui/state-panels';
import { billingQuery, invoicesQuery } from '~/features/billing/api/billing';
import { CancelSubscription } from '~/features/billing/components/cancel-subscription';
import { ChangePlanDialog, TRIAL_DAYS } from '~/features/billing/components/change-plan-dialog';
import { InvoiceTable } from '~/features/billing/components/invoice-table';
import { shownTokens } from '~/features/usage/shown-tokens';
import { formatCents, formatLastDay, formatNumber, formatUtcDate } from '~/lib/format';
import { useAuth } from '~/lib/auth';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Billing', 'Your plan, usage this month, invoices and payment method.', '/dashboard/billing');

function Row({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export default function BillingPage() {
  const billing = useQuery(billingQuery());
  const invoices = useQuery(invoicesQuery());
  const data = billing.data;
  const paid = data && (data.plan === 'pro' || data.plan === 'enterprise');
  // The shared demo account's plan is the same for every visitor: shown, not changed.
  const { user } = useAuth();
  const isDemo = user?.isDemo === true;

  return (
    <DashboardPage title="Billing" description="Your plan, usage this month, invoices and payment method.">
      {billing.isError ? (
        <ErrorState message={billing.error.message} onRetry={() => billing.refetch()} />
      ) : !data ? (
        <div className="grid gap-4 lg:grid-cols-2" role="status" aria-busy="true" aria-label="Loading billing">
          <Skeleton className="h-56" />
          <Skeleton className="h-56" />
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card className="min-w-0 p-5">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h2 className="text-sm font-medium text-muted-foreground">Current plan</h2>
                <p className="mt-1 text-2xl font-semibold" data-testid="current-plan">
                  {data.planName}
                </p>
                <p className="text-sm text-muted-foreground" data-testid="plan-price">
                  {data.priceCents === 0 ? '$0/month' : `${formatCents(data.priceCents)}/${data.period === 'monthly' ? 'month' : 'year'}`}
                </p>
              </div>
              {data.cancelAtPeriodEnd ? (
                <Badge tone="warning">Cancels {formatLastDay(data.currentPeriodEnd)}</Badge>
              ) : (
                data.trialEndsAt && <Badge tone="accent">Free trial</Badge>
              )}
            </div>
            {data.trialEndsAt && (
              <p className="mt-2 text-sm text-muted-foreground" data-testid="trial-status">
                {data.cancelAtPeriodEnd
                  ? `Your free trial ends ${formatUtcDate(data.trialEndsAt)} and nothing is billed for ${data.planName}.`
                  : `Free trial until ${formatUtcDate(data.trialEndsAt)}: nothing is billed for ${data.planName} until then, when the first invoice is issued.`}
              </p>
            )}
            <dl className="mt-4 divide-y divide-border">
              <Row label="Billing period" value={`${formatUtcDate(data.currentPeriodStart)} – ${formatLastDay(data.currentPeriodEnd)}`} />
              <Row
                label={data.cancelAtPeriodEnd ? 'Plan ends' : 'Next billing date'}
                // A plan that ends is named by its last day, as the badge above names it; a renewal by the day it bills.
                value={data.cancelAtPeriodEnd ? formatLastDay(data.currentPeriodEnd) : formatUtcDate(data.nextBillingDate)}
                testId="next-billing-date"
              />
            </dl>
            {isDemo ? (
              <p className="mt-4 text-sm text-muted-foreground" data-testid="demo-billing-note">
                {DEMO_ACCOUNT_REFUSALS.billing}
              </p>
            ) : (
              <>
                <div className="mt-4 flex flex-wrap gap-2">
                  <ChangePlanDialog billing={data} />
                  {paid && <CancelSubscription billing={data} />}
                </div>
                {data.trialAvailable && (
                  <p className="mt-3 text-sm text-muted-foreground" data-testid="trial-offer">
                    Pro and Enterprise start with a {TRIAL_DAYS}-day free trial: nothing is billed until it ends.
                    {user?.verified === false && ' Confirm your email address to start it.'}
                  </p>
                )}
              </>
            )}
          </Card>

          <Card className="min-w-0 p-5">
            <h2 className="text-sm font-medium text-muted-foreground">Usage this month</h2>
            <dl className="mt-2 divide-y divide-border">
              <Row
                label="Tokens used"
                value={
                  data.usage.tokensLimit === null
                    ? formatNumber(shownTokens(data.usage))
                    : `${formatNumber(shownTokens(data.usage))} / ${formatNumber(data.usage.tokensLimit)}`
                }
              />
              {data.usage.ownKeyTokens > 0 && (
                <Row label="On your own provider keys" value={formatNumber(data.usage.ownKeyTokens)} testId="own-key-tokens" />
              )}
              <Row
                // A yearly plan's renewal bills every month's overage of the year (decisions 0004).
                label={data.period === 'yearly' ? 'Overage this billing year' : 'Overage'}
                testId="overage"
                value={
                  data.overage.applies
                    ? `${formatCents(data.overage.costCents)}${data.overage.tokens > 0 ? ` (${formatNumber(data.overage.tokens)} tokens)` : ''}`
                    : formatCents(0)
                }
              />
              <Row
                label={data.trialEndsAt && !data.cancelAtPeriodEnd ? 'Estimated first bill' : 'Estimated bill'}
                value={formatCents(data.estimatedBillCents)}
                testId="estimated-bill"
              />
            </dl>
            {/* A plan without a quota (Enterprise) has no overage to explain. */}
            {!(data.overage.applies && data.usage.tokensLimit === null) && (
              <p className="mt-3 text-xs text-muted-foreground" data-testid="overage-note">
                {data.overage.applies
                  ? `Tokens over your quota cost $${OVERAGE_USD_PER_1K_TOKENS.toFixed(2)} per 1K on ${data.planName}.`
                  : data.plan === 'free'
                    ? 'Free plans are never billed for overage: requests are throttled until the next cycle.'
                    : 'Traffic on your own provider keys has no token quota; your providers bill you directly.'}
              </p>
            )}
          </Card>
        </div>
      )}

      <Card className="min-w-0 p-5">
        <h2 className="font-semibold">Payment method</h2>
        <div className="mt-3 flex items-start gap-3 rounded-md border border-dashed border-border p-4">
          <CreditCard className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="text-sm">
            <p className="font-medium">No card on file</p>
            <p className="text-muted-foreground">
              This deployment has no payment processor connected, so no card can be added. Invoices stay open until settled with us
              directly.
            </p>
          </div>
        </div>
      </Card>

      <Card className="min-w-0 p-5">
        <h2 className="mb-3 font-semibold">Invoice history</h2>
        {invoices.isError ? (
          <ErrorState message={invoices.error.message} onRetry={() => invoices.refetch()} />
        ) : !invoices.data ? (
          <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading invoices">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} className="h-8 w-full" />
            ))}
          </div>
        ) : invoices.data.invoices.length === 0 ? (
          <EmptyState icon={FileText} title="No invoices yet">
            Invoices appear here when a paid plan is billed: at the end of a free trial, on a plan change and at each renewal.
          </EmptyState>
        ) : (
          <InvoiceTable invoices={invoices.data.invoices} />
        )}
      </Card>
    </DashboardPage>
  );
}
