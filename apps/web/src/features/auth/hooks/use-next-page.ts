import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { nextPage } from '../lib/next-path';

/**
 * The `?next=` dashboard page of the current address (see `nextPage`), read after hydration:
 * the prerendered HTML has no query, and what depends on it (a link's target) must not differ
 * from it while hydrating.
 */
export function useNextPage(): string | null {
  const { search } = useLocation();
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => setNext(nextPage(search)), [search]);
  return next;
}

/** The paid plan and period a `next` page asks Billing to change to (from the pricing page), if it does. */
export function chosenPlan(next: string | null): { plan: 'Pro' | 'Enterprise'; period: 'monthly' | 'yearly' } | null {
  if (!next?.startsWith('/dashboard/billing?')) return null;
  const query = new URLSearchParams(next.slice('/dashboard/billing'.length));
  const plan = query.get('plan');
  const period = query.get('period') === 'yearly' ? 'yearly' : 'monthly';
  if (plan === 'pro') return { plan: 'Pro', period };
  if (plan === 'enterprise') return { plan: 'Enterprise', period };
  return null;
}
