import { useEffect } from 'react';
import { Link } from 'react-router';
import { cn } from '~/lib/cn';
import { usePublicQuery } from '~/lib/public-query';
import { healthQueryOptions } from '../api/health';

/**
 * Live system status from `GET /v1/health`: hidden while loading or when the call fails
 * (the failure is logged), 'Operational' in green or 'Degraded' in yellow otherwise.
 */
export function HealthBadge() {
  const { data, error, isError } = usePublicQuery(healthQueryOptions());
  useEffect(() => {
    if (isError) console.warn('Health check failed; status badge hidden.', error);
  }, [isError, error]);
  if (!data || isError) return null;
  const operational = data.status === 'operational';
  return (
    <Link
      to="/status"
      className={cn(
        'inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm font-medium transition-colors',
        operational ? 'border-success/30 bg-success-soft text-success' : 'border-warning/30 bg-warning-soft text-warning',
      )}
      data-status={operational ? 'operational' : 'degraded'}
    >
      <span className="relative flex size-2">
        <span
          className={cn('absolute inline-flex size-full animate-ping rounded-full opacity-60', operational ? 'bg-success' : 'bg-warning')}
        />
        <span className={cn('relative inline-flex size-2 rounded-full', operational ? 'bg-success' : 'bg-warning')} />
      </span>
      <span className="sr-only">System status: </span>
      {operational ? 'Operational' : 'Degraded'}
    </Link>
  );
}
