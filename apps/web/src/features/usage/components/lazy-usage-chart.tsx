import { lazy, Suspense } from 'react';
import { Skeleton } from '~/components/ui/skeleton';
import type { UsageChartProps } from './usage-chart';

const UsageChart = lazy(() => import('./usage-chart'));

/** Loads the charting library only when a chart is on screen. */
export function LazyUsageChart(props: UsageChartProps) {
  const height = props.height ?? 260;
  return (
    <Suspense fallback={<Skeleton className="w-full" style={{ height }} />}>
      <UsageChart {...props} />
    </Suspense>
  );
}
