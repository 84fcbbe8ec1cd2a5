import type { StatusComponent, StatusDay } from '@conductor/shared/schemas/status';
import { cn } from '~/lib/cn';

const COLOUR = { operational: 'bg-success', degraded: 'bg-warning', outage: 'bg-danger' } as const;

function describeDay(day: StatusDay): string {
  const date = new Date(`${day.date}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  if (day.status === null) return `${date}: no data`;
  return `${date}: ${day.status}, ${day.uptimePercent}% uptime over ${day.checks} checks`;
}

const countDays = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** One bar per day, oldest on the left; the whole strip has a text summary for screen readers. */
export function UptimeBars({ component, days }: { component: StatusComponent; days: number }) {
  const problemDays = component.history.filter((day) => day.status === 'degraded' || day.status === 'outage').length;
  // The uptime covers only the days with checks: a new install must not claim 90 days of it.
  const daysWithData = component.history.filter((day) => day.status !== null).length;
  const uptime = component.uptimePercent === null ? 'No history yet' : `${component.uptimePercent}% uptime over ${countDays(daysWithData)}`;
  const summary = `${component.name}, last ${days} days: ${uptime}${problemDays > 0 ? `, ${countDays(problemDays)} with problems` : ''}.`;
  return (
    <div className="mt-4">
      <div role="img" aria-label={summary} className="flex h-8 items-stretch gap-px sm:gap-0.5">
        {component.history.map((day) => (
          <span
            key={day.date}
            title={describeDay(day)}
            data-day-status={day.status ?? 'none'}
            className={cn('min-w-0 flex-1 rounded-[2px]', day.status ? COLOUR[day.status] : 'bg-border')}
          />
        ))}
      </div>
      <div className="mt-2 flex justify-between text-xs text-muted-foreground" aria-hidden="true">
        <span>{days} days ago</span>
        <span>{uptime}</span>
        <span>Today</span>
      </div>
    </div>
  );
}
