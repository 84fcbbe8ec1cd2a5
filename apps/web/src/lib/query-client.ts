import { QueryClient } from '@tanstack/react-query';
import { type AuthState, authStore } from './auth';

/** The spec's data-read policy: one retry, stale after 5 minutes, no refetch on focus. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, staleTime: 5 * 60 * 1000, refetchOnWindowFocus: false },
  },
});

/** The signed-in user's id; null when signed out, undefined while the session is unknown. */
const userIdOf = (state: AuthState): string | null | undefined =>
  state.isLoading ? undefined : state.isAuthenticated && state.user ? state.user.id : null;

/**
 * The cache belongs to the user who filled it: when someone else signs in, in the same tab, it
 * is dropped before their pages render, so nothing of the previous user shows. Signing out keeps
 * it until then: the pages still mounted would fetch what was dropped, and get 401s.
 */
let owner = userIdOf(authStore.getSnapshot()) ?? null;
authStore.subscribe(() => {
  const next = userIdOf(authStore.getSnapshot());
  if (!next) return;
  if (owner !== null && next !== owner) queryClient.clear();
  owner = next;
});
