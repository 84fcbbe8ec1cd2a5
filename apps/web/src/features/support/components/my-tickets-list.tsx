import { TICKET_CATEGORY_LABELS, TICKET_PRIORITY_LABELS } from '@conductor/shared/schemas/support';
import { useQuery } from '@tanstack/react-query';
import { Inbox, Paperclip } from 'lucide-react';
import { Badge } from '~/components/ui/badge';
import { Skeleton } from '~/components/ui/skeleton';
import { EmptyState, ErrorState } from '~/components/ui/state-panels';
import { useAuth } from '~/lib/auth';
import { QueryProvider } from '~/lib/query-provider';
import { ticketsQueryOptions } from '../api/ticket-list';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A signed-in user's tickets, newest first: loaded (with TanStack Query) only when shown. */
export default function MyTicketsList() {
  return (
    <QueryProvider>
      <TicketList />
    </QueryProvider>
  );
}

function TicketList() {
  const { isAuthenticated } = useAuth();
  const tickets = useQuery({ ...ticketsQueryOptions, enabled: isAuthenticated });
  return (
    <div className="mt-4">
      {tickets.isPending ? (
        <div className="space-y-2" aria-busy="true">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : tickets.isError ? (
        <ErrorState title="Could not load your tickets" message={tickets.error.message} onRetry={() => tickets.refetch()} />
      ) : tickets.data.length === 0 ? (
        <EmptyState icon={Inbox} title="No tickets yet">
          Tickets you submit while signed in appear here, with their number and status.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border bg-card" aria-label="Your tickets">
          {tickets.data.map((ticket) => (
            <li key={ticket.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm">
              <span className="font-mono text-muted-foreground">#{ticket.number}</span>
              <span className="min-w-0 flex-1 truncate font-medium">{ticket.subject}</span>
              <span className="text-muted-foreground">
                {TICKET_CATEGORY_LABELS[ticket.category]} · {TICKET_PRIORITY_LABELS[ticket.priority]}
              </span>
              {ticket.attachments.length > 0 && (
                <span
                  className="flex items-center gap-1 text-muted-foreground"
                  title={ticket.attachments.map((file) => file.filename).join(', ')}
                >
                  <Paperclip className="size-3.5" aria-hidden />
                  {ticket.attachments.length}
                </span>
              )}
              <Badge tone={ticket.status === 'open' ? 'accent' : 'neutral'} className="capitalize">
                {ticket.status}
              </Badge>
              <time dateTime={ticket.createdAt} className="text-xs text-muted-foreground">
                {dateTime.format(new Date(ticket.createdAt))}
              </time>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
