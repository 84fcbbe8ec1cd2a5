import type { UsageRange } from '@conductor/shared/schemas/usage';
import { useQuery } from '@tanstack/react-query';
import { BarChart3, CheckCircle2, Clock, Download, DollarSign } from 'lucide-react';
import { useState } from 'react';
import { DashboardPage } from '~/components/layouts/dashboard-page';
import { buttonClasses } from '~/components/ui/button';
import { DownloadLink } from '~/components/ui/download-link';
import { Card } from '~/components/ui/card';
import { Skeleton } from '~/components/ui/skeleton';
import { EmptyState, ErrorState } from '~/components/ui/state-panels';
import { StatCard } from '~/components/ui/stat-card';
import { currentUsageQuery, metricsQuery, usageExportUrl } from '~/features/usage/api/usage-queries';
import { ByModelTable } from '~/features/usage/components/by-model-table';
import { LazyUsageChart } from '~/features/usage/components/lazy-usage-chart';
import { RangeSelect } from '~/features/usage/components/range-select';
import { UsageBar } from '~/features/usage/components/usage-bar';
import { formatCount, formatLatency, formatMicros, formatNumber, formatSuccessRate } from '~/lib/format';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Usage', 'Tokens, requests, latency and cost over time.', '/dashboard/usage');

// The spec's options for this page: "24h, 7d, 30d, 90d" (the overview's are worded "7 days, 30 days, 3 months").
const RANGES = [
  ['24h', '24h'],
  ['7d', '7d'],
  ['30d', '30d'],
  ['90d', '90d'],
] as const satisfies readonly (readonly [UsageRange, string])[];

const RANGE_TEXT: Record<UsageRange, string> = {
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
  '90d': 'last 90 days',
};

export default function UsagePage() {
  const [range, setRange] = useState<UsageRange>('7d');
  const current = useQuery(currentUsageQuery());
  const metrics = useQuery(metricsQuery(range));
  const data = metrics.data;
  const summary = data?.summary;
  const empty = summary?.requests === 0;

  return (
    <DashboardPage
      title="Usage"
      description="Tokens, requests, latency and cost over time."
      actions={
        <div className="flex items-center gap-2">
          <RangeSelect value={range} options={RANGES} onChange={setRange} />
          <DownloadLink
            href={usageExportUrl(range)}
            filename={`conductor-usage-${range}.csv`}
            failure="Could not export the usage."
            className={buttonClasses('secondary', 'sm', 'h-9')}
          >
            <Download className="size-4" aria-hidden="true" /> Export CSV
          </DownloadLink>
        </div>
      }
    >
      <Card className="min-w-0 p-5">
        {current.isError ? (
          <ErrorState message={current.error.message} onRetry={() => current.refetch()} />
        ) : current.data ? (
          <UsageBar
            used={current.data.tokensUsed}
            ownKeyTokens={current.data.ownKeyTokens}
            testTokens={current.data.testTokens}
            limit={current.data.tokensLimit}
          />
        ) : (
          <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading token usage">
            <Skeleton className="h-4 w-64" />
            <Skeleton className="h-2.5 w-full" />
          </div>
        )}
      </Card>

      {metrics.isError ? (
        <ErrorState message={metrics.error.message} onRetry={() => metrics.refetch()} />
      ) : (
        <>
          <section aria-label={`Totals for the ${RANGE_TEXT[range]}`} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard
              label="Requests"
              icon={BarChart3}
              loading={!summary}
              value={summary && formatNumber(summary.requests)}
              hint={summary && formatCount(summary.totalTokens, 'token')}
            />
            <StatCard
              label="Average response time"
              icon={Clock}
              loading={!summary}
              value={summary && (summary.avgLatencyMs === null ? '—' : formatLatency(summary.avgLatencyMs))}
              hint={`Over the ${RANGE_TEXT[range]}`}
            />
            <StatCard
              label="Success rate"
              icon={CheckCircle2}
              loading={!summary}
              value={summary && (summary.successRate === null ? '—' : formatSuccessRate(summary.successRate))}
              hint={summary && formatCount(summary.errors, 'error')}
            />
            <StatCard
              label="Estimated cost"
              icon={DollarSign}
              loading={!summary}
              value={summary && formatMicros(summary.costMicros)}
              hint="At the providers’ list prices"
            />
          </section>

          {data && empty ? (
            <EmptyState icon={BarChart3} title={`No requests in the ${RANGE_TEXT[range]}`}>
              Requests made with your API keys appear here within seconds. Create a key on the API Keys page and call
              <code className="mx-1 font-mono">POST /v1/chat/completions</code>.
            </EmptyState>
          ) : (
            <>
              <div className="grid gap-4 xl:grid-cols-2">
                <Card className="min-w-0 p-5">
                  <h2 className="mb-4 font-semibold">Requests</h2>
                  {data ? (
                    <LazyUsageChart series={data.series} granularity={data.granularity} kind="requests" />
                  ) : (
                    <Skeleton className="h-[260px]" />
                  )}
                </Card>
                <Card className="min-w-0 p-5">
                  <h2 className="mb-4 font-semibold">Tokens</h2>
                  {data ? (
                    <LazyUsageChart series={data.series} granularity={data.granularity} kind="tokens" />
                  ) : (
                    <Skeleton className="h-[260px]" />
                  )}
                </Card>
              </div>
              <Card className="min-w-0 p-5">
                <h2 className="mb-3 font-semibold">Usage by model</h2>
                {data ? (
                  <ByModelTable rows={data.byModel} />
                ) : (
                  <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading usage by model">
                    {[0, 1, 2, 3].map((row) => (
                      <Skeleton key={row} className="h-8 w-full" />
                    ))}
                  </div>
                )}
                {data && (
                  <p className="mt-3 text-xs text-muted-foreground">
                    Trend compares tokens with the previous {RANGE_TEXT[range].replace('last ', '')}.
                  </p>
                )}
              </Card>
            </>
          )}
        </>
      )}
    </DashboardPage>
  );
}
