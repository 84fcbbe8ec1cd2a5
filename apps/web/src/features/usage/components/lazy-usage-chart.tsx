import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Skeleton } from '~/components/ui/skeleton';
import type { UsageChartProps } from './usage-chart';

const UsageChart = lazy(() => import('./usage-chart'));

/**
 * Loads the charting library (recharts, about 110 KB gzip) only when a chart comes on
 * screen: a chart below the fold, as on the overview on a phone, costs nothing until the
 * visitor scrolls to it.
 */
export function LazyUsageChart(props: UsageChartProps) {
  const height = props.height ?? 260;
  const placeholder = useRef<HTMLDivElement>(null);
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const element = placeholder.current;
    if (onScreen || !element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setOnScreen(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setOnScreen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onScreen]);
  const skeleton = <Skeleton className="w-full" style={{ height }} />;
  if (!onScreen) return <div ref={placeholder}>{skeleton}</div>;
  return (
    <Suspense fallback={skeleton}>
      <UsageChart {...props} />
    </Suspense>
  );
}
