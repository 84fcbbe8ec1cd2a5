import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { nextPage } from '~/lib/next-path';

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
