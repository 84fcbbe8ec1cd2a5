import type { UsageRange } from '@conductor/shared/schemas/usage';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Activity, BookOpen, CreditCard, Gauge, KeyRound, Layers, RefreshCw, Wallet, Zap } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { DashboardPage } from '~/components/layouts/dashboard-page';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { ErrorState } from '~/components/ui/state-panels';
import { StatCard } from '~/components/ui/stat-card';
import { FirstRequest } from '~/features/api-keys/components/first-request';
import { activityQuery, currentUsageQuery, metricsQuery, usageKeys } from '~/features/usage/api/usage-queries';
import { LazyUsageChart } from '~/features/usage/components/lazy-usage-chart';
import { RangeSelect } from '~/features/usage/components/range-select';
import { RecentActivityList, RecentActivitySkeleton } from '~/features/usage/components/recent-activity';
import { shownTokens, tokensHint } from '~/features/usage/shown-tokens';
import { planLabel, useAuth } from '~/lib/auth';
import { greeting } from '~/lib/greeting';
import { formatCount, formatMicros, formatNumber } from '~/lib/format';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Overview', 'Your Conductor usage at a glance.', '/dashboard');

const RANGES = [
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['90d', '3 months'],
] as const satisfies readonly (readonly [UsageRange, string])[];
type OverviewRange = (typeof RANGES)[number][0];

const QUICK_LINKS = [
  { to: '/dashboard/keys', label: 'Manage API keys', description: 'Create, rename and revoke keys', icon: KeyRound },
  { to: '/dashboard/usage', label: 'View usage', description: 'Tokens, latency and cost by model', icon: Activity },
  { to: '/dashboard/billing', label: 'Billing', description: 'Plan, invoices and estimated bill', icon: CreditCard },
  { to: '/docs/quick-start', label: 'Quick start', description: 'Your first request in a minute', icon: BookOpen },
] as const;

/** How often the activity is asked for while the first-request card waits for a request. */
const FIRST_REQUEST_POLL_MS = 4_000;

export default function Overview() {
  const { user } = useAuth();
  const [range, setRange] = useState<OverviewRange>('7d');
  const queryClient = useQueryClient();
  const current = useQuery(currentUsageQuery());
  const metrics = useQuery(metricsQuery(range));
  // The key the first-request card created: the card stays, key and all, until dismissed. Held here,
  // not in the card, which a poll may take off the page while the key is being created.
  const [firstKey, setFirstKey] = useState<string | null>(null);
  const keepFirstRequest = firstKey !== null;
  const firstRequestShown = (activity: { data?: { items: unknown[] } }) => keepFirstRequest || activity.data?.items.length === 0;
  // While the first-request card is on screen, ask for the activity every few seconds: the card says
  // the request "will appear here", and the query otherwise waits 5 minutes (no refetch on focus).
  const activity = useQuery({
    ...activityQuery(5),
    refetchInterval: (query) => (firstRequestShown({ data: query.state.data }) ? FIRST_REQUEST_POLL_MS : false),
  });
  const usage = current.data;
  const activityItems = activity.data?.items;
  // The icon turns for a refresh the user asked for, not for the polls behind the first-request card.
  // (A count: of two quick clicks, the first to finish does not stop the second's.)
  const [refreshes, setRefreshes] = useState(0);
  const refreshing = refreshes > 0;
  const refresh = () => {
    setRefreshes((count) => count + 1);
    void queryClient.invalidateQueries({ queryKey: usageKeys.all }).finally(() => setRefreshes((count) => count - 1));
  };
  // Dismiss takes its own button off the page: focus goes to the list it leaves, not to the page's start.
  const activityHeading = useRef<HTMLHeadingElement>(null);
  const dismissFirstRequest = () => {
    setFirstKey(null);
    activityHeading.current?.focus();
  };

  return (
    <DashboardPage
      title={greeting(user)}
      description="Here is what is happening with your API."
      actions={
        <Button variant="secondary" size="sm" onClick={refresh}>
          <RefreshCw className={`size-4 ${refreshing ? 'animate-spin' : ''}`} aria-hidden="true" /> Refresh
        </Button>
      }
    >
      {current.isError ? (
        <ErrorState message={current.error.message} onRetry={() => current.refetch()} />
      ) : (
        <section aria-label="Summary" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <StatCard
            label="Tokens Used"
            icon={Zap}
            loading={!usage}
            value={usage ? formatNumber(shownTokens(usage)) : null}
            hint={usage && tokensHint(usage)}
          />
          <StatCard
            label="Requests Today"
            icon={Gauge}
            loading={!usage}
            value={usage ? formatNumber(usage.requestsToday) : null}
            hint={usage && `Limit: ${formatNumber(usage.requestsLimitPerMinute)} requests/min`}
          />
          <StatCard
            label="Current Plan"
            icon={Layers}
            loading={!usage}
            value={usage ? planLabel(usage.plan) : null}
            hint={
              <Link to="/dashboard/billing" className="text-primary hover:underline">
                Manage plan
              </Link>
            }
          />
          <StatCard
            label="This Month"
            icon={Wallet}
            loading={!usage}
            value={usage ? formatMicros(usage.costThisMonthMicros) : null}
            hint="Computed cost of this month’s requests"
          />
        </section>
      )}

      <div className="grid gap-4 xl:grid-cols-3">
        <Card className="min-w-0 p-5 xl:col-span-2">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 className="font-semibold">Requests and tokens</h2>
              <p className="text-xs text-muted-foreground">Per day, UTC</p>
            </div>
            <RangeSelect value={range} options={RANGES} onChange={setRange} />
          </div>
          {metrics.isError ? (
            <ErrorState message={metrics.error.message} onRetry={() => metrics.refetch()} />
          ) : metrics.data ? (
            <>
              <p className="mb-2 text-sm text-muted-foreground" data-testid="range-summary">
                {formatCount(metrics.data.summary.requests, 'request')} · {formatCount(metrics.data.summary.totalTokens, 'token')}
              </p>
              <LazyUsageChart series={metrics.data.series} granularity={metrics.data.granularity} kind="requests-tokens" height={280} />
            </>
          ) : (
            <div className="h-[304px] animate-pulse rounded-md bg-muted" role="status" aria-busy="true" aria-label="Loading chart" />
          )}
        </Card>

        <Card className="min-w-0 p-5">
          <h2 ref={activityHeading} tabIndex={-1} className="mb-2 font-semibold outline-none">
            Recent activity
          </h2>
          {/* What has loaded stays on screen through a failed poll: the first-request card holds a key shown only once. */}
          {activityItems ? (
            <div className="space-y-4">
              {firstRequestShown(activity) && (
                <FirstRequest
                  apiKey={firstKey}
                  onKeyCreated={setFirstKey}
                  requestSeen={activityItems.length > 0}
                  onDismiss={keepFirstRequest && activityItems.length > 0 ? dismissFirstRequest : undefined}
                />
              )}
              {activityItems.length > 0 && <RecentActivityList items={activityItems} />}
            </div>
          ) : activity.isError ? (
            <ErrorState message={activity.error.message} onRetry={() => activity.refetch()} />
          ) : (
            <RecentActivitySkeleton />
          )}
        </Card>
      </div>

      <section aria-labelledby="quick-links">
        <h2 id="quick-links" className="mb-3 font-semibold">
          Quick links
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {QUICK_LINKS.map(({ to, label, description, icon: Icon }) => (
            <Link
              key={to}
              to={to}
              className="group rounded-xl border border-border bg-card p-4 shadow-sm transition-colors hover:border-primary/50"
            >
              <Icon className="size-5 text-primary" aria-hidden="true" />
              <p className="mt-2 font-medium group-hover:text-primary">{label}</p>
              <p className="text-sm text-muted-foreground">{description}</p>
            </Link>
          ))}
        </div>
      </section>
    </DashboardPage>
  );
}
