import { type ComponentStatus, TIMEOUTS_MS } from '@conductor/shared';
import type { StatusComponent } from '@conductor/shared/schemas/status';
import { AlertTriangle, CheckCircle2, History, RefreshCw, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Button } from '~/components/ui/button';
import { cn } from '~/lib/cn';
import { fetchPublicQuery, usePublicQuery } from '~/lib/public-query';
import { statusQueryOptions } from '../api/status';
import { UptimeBars } from './uptime-bars';

export const STATUS_LABEL: Record<ComponentStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  outage: 'Outage',
};

const OVERALL: Record<ComponentStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Some systems are degraded',
  outage: 'Major outage',
};

const TONE: Record<ComponentStatus, { text: string; soft: string; icon: typeof CheckCircle2 }> = {
  operational: { text: 'text-success', soft: 'bg-success-soft', icon: CheckCircle2 },
  degraded: { text: 'text-warning', soft: 'bg-warning-soft', icon: AlertTriangle },
  outage: { text: 'text-danger', soft: 'bg-danger-soft', icon: XCircle },
};

/** After two refresh intervals without a fresh answer, what is shown is no longer the live state. */
// A little under two intervals: the refresh timer counts from the page's start, the data's age from
// when its answer came, so the second failed refresh finds it just under two intervals old.
const STALE_AFTER_MS = 2 * TIMEOUTS_MS.healthRefresh - 5_000;

/** /status: overall state, each component with its colour, and 90 days of uptime bars. Refreshed every 60 s. */
export function StatusPage() {
  const { data, isError, dataUpdatedAt } = usePublicQuery(statusQueryOptions());
  const [isFetching, setFetching] = useState(false);
  const refetch = () => {
    setFetching(true);
    void fetchPublicQuery(statusQueryOptions()).finally(() => setFetching(false));
  };
  // Re-evaluated on every failed refresh, which re-renders the page (the state changes).
  const isStale = isError && data !== undefined && Date.now() - dataUpdatedAt >= STALE_AFTER_MS;

  if (isError && !data) {
    return (
      <div role="alert" className="rounded-xl border border-border bg-card p-6">
        <p className="font-semibold">We could not load the live status.</p>
        <p className="mt-1 text-sm text-muted-foreground">
          The status service did not answer. This can mean a wider problem; try again in a moment.
        </p>
        <Button variant="secondary" className="mt-4" onClick={refetch} disabled={isFetching}>
          <RefreshCw className={cn('size-4', isFetching && 'animate-spin')} aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }

  if (!data) return <StatusSkeleton />;
  const tone = TONE[data.status];
  const OverallIcon = isStale ? History : tone.icon;
  const checkedAt = new Date(data.checkedAt).toLocaleString();
  const platform = data.components.filter((component) => component.group === 'platform');
  const providers = data.components.filter((component) => component.group === 'provider');
  return (
    <div className="space-y-10">
      {/* Always in the page so that screen readers announce the warning when it appears. */}
      <div role="status" aria-live="polite" className="empty:hidden">
        {isStale && (
          <div className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-warning bg-warning-soft p-5">
            <div className="flex items-start gap-3">
              <AlertTriangle className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
              <p className="text-sm">
                <span className="font-semibold">We could not refresh the status.</span> Showing what we last saw at {checkedAt}.
              </p>
            </div>
            <Button variant="secondary" onClick={refetch} disabled={isFetching}>
              <RefreshCw className={cn('size-4', isFetching && 'animate-spin')} aria-hidden="true" />
              Try again
            </Button>
          </div>
        )}
      </div>
      {/* Stale, it is not the live state: no success/danger colour, and the words say it is the last known one. */}
      <section
        aria-label="Overall status"
        className={cn('flex items-center gap-3 rounded-xl p-5', isStale ? 'border border-border bg-muted' : tone.soft)}
        data-status={data.status}
        data-stale={isStale ? 'true' : undefined}
      >
        <OverallIcon className={cn('size-7 shrink-0', isStale ? 'text-muted-foreground' : tone.text)} aria-hidden="true" />
        <div>
          <p className={cn('text-lg font-semibold', !isStale && tone.text)}>
            {isStale ? 'Last known: ' : ''}
            {OVERALL[data.status]}
          </p>
          <p className="text-sm text-muted-foreground">
            Checked {checkedAt} · {isStale ? 'not refreshed since' : 'refreshes every minute'}
          </p>
        </div>
      </section>
      <ComponentGroup title="Platform" components={platform} days={data.historyDays} />
      {providers.length > 0 && <ComponentGroup title="Model providers" components={providers} days={data.historyDays} />}
      <Legend />
    </div>
  );
}

function ComponentGroup({ title, components, days }: { title: string; components: StatusComponent[]; days: number }) {
  return (
    <section aria-labelledby={`status-${title}`}>
      <h2 id={`status-${title}`} className="text-lg font-semibold">
        {title}
      </h2>
      <ul className="mt-3 divide-y divide-border rounded-xl border border-border bg-card">
        {components.map((component) => (
          <li key={component.id} className="p-5" data-component={component.id} data-status={component.status}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h3 className="font-medium">{component.name}</h3>
                <p className="text-sm text-muted-foreground">{component.description}</p>
              </div>
              <StatusPill status={component.status} />
            </div>
            <UptimeBars component={component} days={days} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function StatusPill({ status }: { status: ComponentStatus }) {
  const tone = TONE[status];
  return (
    <span className={cn('inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-medium', tone.soft, tone.text)}>
      <tone.icon className="size-4" aria-hidden="true" />
      {STATUS_LABEL[status]}
    </span>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted-foreground" aria-label="Legend">
      {[
        ['bg-success', 'Operational'],
        ['bg-warning', 'Degraded'],
        ['bg-danger', 'Outage'],
        ['bg-border', 'No data'],
      ].map(([colour, label]) => (
        <li key={label} className="flex items-center gap-2">
          <span className={cn('size-3 rounded-sm', colour)} aria-hidden="true" />
          {label}
        </li>
      ))}
    </ul>
  );
}

function StatusSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true">
      <p className="sr-only">Loading the live status…</p>
      <div className="h-20 animate-pulse rounded-xl bg-muted" />
      {[0, 1, 2].map((row) => (
        <div key={row} className="space-y-3 rounded-xl border border-border p-5">
          <div className="h-4 w-40 animate-pulse rounded bg-muted" />
          <div className="h-8 animate-pulse rounded bg-muted" />
        </div>
      ))}
    </div>
  );
}
