import { QueryClient } from '@tanstack/react-query';
import { type AuthState, authStore } from './auth';

/** The spec's data-read policy: one retry, stale after 5 minutes, no refetch on focus. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, staleTime: 5 * 60 * 1000, refetchOnWindowFocus: false },
  },
});

/** Whose data the cache holds: a user id, null when signed out, undefined while the session is unknown. */
const ownerOf = (state: AuthState): string | null | undefined =>
  state.isLoading ? undefined : state.isAuthenticated && state.user ? state.user.id : null;

/**
 * The cache belongs to the signed-in user: when they sign out (from any menu, or a 401 ends the
 * session) or someone else signs in, in the same tab, none of it may be shown to the next user.
 */
let owner = ownerOf(authStore.getSnapshot());
authStore.subscribe(() => {
  const next = ownerOf(authStore.getSnapshot());
  if (next === undefined) return;
  if (owner !== undefined && next !== owner) queryClient.clear();
  owner = next;
});
