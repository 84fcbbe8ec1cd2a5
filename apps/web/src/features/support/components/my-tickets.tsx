import { DEMO_TICKETS_NOTE } from '@conductor/shared/constants/demo-account';
import { lazy, Suspense } from 'react';
import { Skeleton } from '~/components/ui/skeleton';
import { useAuth } from '~/lib/auth';

/** The list and TanStack Query load only for a signed-in user. */
const MyTicketsList = lazy(() => import('./my-tickets-list'));

/** A signed-in user's tickets, newest first. Nothing for visitors. */
export function MyTickets() {
  const { isAuthenticated, user } = useAuth();
  if (!isAuthenticated) return null;
  if (user?.isDemo)
    return (
      <section aria-labelledby="my-tickets-title" className="mt-10">
        <h3 id="my-tickets-title" className="text-lg font-semibold">
          Your tickets
        </h3>
        <p className="mt-4 text-sm text-muted-foreground">{DEMO_TICKETS_NOTE}</p>
      </section>
    );
  return (
    <section aria-labelledby="my-tickets-title" className="mt-10">
      <h3 id="my-tickets-title" className="text-lg font-semibold">
        Your tickets
      </h3>
      <Suspense
        fallback={
          <div className="mt-4">
            <div className="space-y-2" aria-busy="true">
              <Skeleton className="h-14" />
              <Skeleton className="h-14" />
            </div>
          </div>
        }
      >
        <MyTicketsList />
      </Suspense>
    </section>
  );
}
