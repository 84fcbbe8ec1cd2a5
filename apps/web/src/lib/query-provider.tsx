import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './query-client';

/**
 * TanStack Query for the routes that read signed-in or live data (dashboard, onboarding,
 * support, status). Not in the root: pages without it never load the library. Every
 * provider shares the one client, so the cache lives across routes.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
