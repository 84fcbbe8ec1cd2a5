import { QueryClient } from '@tanstack/react-query';

/** The spec's data-read policy: one retry, stale after 5 minutes, no refetch on focus. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, staleTime: 5 * 60 * 1000, refetchOnWindowFocus: false },
  },
});
