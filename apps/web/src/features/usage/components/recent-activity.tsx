import type { ActivityItem } from '@conductor/shared/schemas/usage';
import { Badge } from '~/components/ui/badge';
import { Skeleton } from '~/components/ui/skeleton';
import { formatLatency, formatNumber, formatRelative } from '~/lib/format';

/** The latest requests, each marked success or error. */
export function RecentActivityList({ items }: { items: ActivityItem[] }) {
  return (
    <ul className="divide-y divide-border" aria-label="Recent activity">
      {items.map((item) => (
        <li key={item.id} className="flex items-center justify-between gap-4 py-3" data-testid="activity-item">
          <div className="min-w-0 flex-1">
            <p className="truncate font-mono text-sm" title={item.model}>
              {item.model}
            </p>
            <p className="text-xs text-muted-foreground">
              {item.apiKeyName ? `${item.apiKeyName} · ` : ''}
              {item.environment === 'test' ? 'Test · ' : ''}
              {formatNumber(item.totalTokens)} tokens · {formatLatency(item.latencyMs)}
            </p>
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <time dateTime={item.createdAt} title={new Date(item.createdAt).toLocaleString()} className="text-xs text-muted-foreground">
              {formatRelative(item.createdAt)}
            </time>
            {item.status === 'success' ? (
              <Badge tone="success">success</Badge>
            ) : (
              <Badge tone="danger" title={`${item.statusCode}${item.errorType ? ` ${item.errorType}` : ''}`}>
                error
              </Badge>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function RecentActivitySkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="divide-y divide-border" role="status" aria-busy="true" aria-label="Loading recent activity">
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={index} className="flex items-center justify-between py-3">
          <div className="space-y-2">
            <Skeleton className="h-4 w-36" />
            <Skeleton className="h-3 w-48" />
          </div>
          <Skeleton className="h-5 w-16 rounded-full" />
        </div>
      ))}
    </div>
  );
}
