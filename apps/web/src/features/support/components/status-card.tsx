import type { ComponentStatus } from '@conductor/shared/schemas/health';
import { STATUS_HISTORY_DAYS } from '@conductor/shared';
import { lazy } from 'react';
import { Link } from 'react-router';
import { Card } from '~/components/ui/card';
import { Prerendered } from '~/components/ui/prerendered';
import { cn } from '~/lib/cn';
import { fetchPublicQuery, usePublicQuery } from '~/lib/public-query';
import { systemStatusQueryOptions } from '../api/status';

/** The loading rows are static markup: the page keeps them from its prerendered HTML (see `Prerendered`). */
const StatusLoading = lazy(() => import('./support-centre-sections').then((module) => ({ default: module.StatusLoading })));

const LABEL: Record<ComponentStatus, string> = { operational: 'Operational', degraded: 'Degraded', outage: 'Outage' };
const DOT: Record<ComponentStatus, string> = { operational: 'bg-success', degraded: 'bg-warning', outage: 'bg-danger' };
const TEXT: Record<ComponentStatus, string> = { operational: 'text-success', degraded: 'text-warning', outage: 'text-danger' };
const OVERALL: Record<ComponentStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Some systems degraded',
  outage: 'Service outage',
};

/** System status from the live health checks (refreshed every 60 seconds). */
export function StatusCard() {
  const status = usePublicQuery(systemStatusQueryOptions);
  return (
    <Card className="p-6" aria-labelledby="status-title">
      <h2 id="status-title" className="font-semibold">
        System Status
      </h2>
      {status.isError ? (
        <p className="mt-4 text-sm text-muted-foreground" role="alert">
          Status is unavailable right now.{' '}
          <button
            type="button"
            onClick={() => void fetchPublicQuery(systemStatusQueryOptions)}
            className="font-medium text-primary hover:underline"
          >
            Try again
          </button>
        </p>
      ) : status.isPending || !status.data ? (
        <Prerendered content={StatusLoading} />
      ) : (
        <>
          <p className={cn('mt-3 flex items-center gap-2 text-sm font-medium', TEXT[status.data.overall])} data-testid="overall-status">
            <span className={cn('size-2.5 rounded-full', DOT[status.data.overall])} aria-hidden />
            {OVERALL[status.data.overall]}
          </p>
          <ul className="mt-4 space-y-2.5 text-sm">
            {status.data.services.map((service) => (
              <li key={service.name} className="flex items-center justify-between gap-3">
                <span className="flex min-w-0 items-center gap-2">
                  <span className={cn('size-2 shrink-0 rounded-full', DOT[service.status])} aria-hidden />
                  <span className="truncate">{service.name}</span>
                </span>
                <span className="flex shrink-0 items-center gap-2 text-xs">
                  <span className={TEXT[service.status]}>{LABEL[service.status]}</span>
                  <span
                    className="w-14 text-right text-muted-foreground tabular-nums"
                    title={
                      service.uptimePercent === null
                        ? 'No health check recorded yet'
                        : `Uptime over the days with health checks in the last ${STATUS_HISTORY_DAYS}`
                    }
                  >
                    {service.uptimePercent === null ? 'No data' : `${service.uptimePercent}%`}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <Link to="/status" className="mt-4 inline-block text-sm font-medium text-primary hover:underline">
        View status page →
      </Link>
    </Card>
  );
}
