import type { ProviderId } from '@conductor/shared';
import type { RoutingPolicy } from '@conductor/shared/openai/chat';
import type { UserResponse } from '@conductor/shared/schemas/onboarding';
import type { RoutingSettings } from '@conductor/shared/schemas/routing';
import type { ChangePasswordInput, SessionList, UpdateProfileInput } from '@conductor/shared/schemas/settings';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '~/lib/api-client';
import { authStore } from '~/lib/auth';

export const settingsKeys = { sessions: ['settings', 'sessions'] as const, routing: ['settings', 'routing'] as const };

export const sessionsQuery = () =>
  queryOptions({ queryKey: settingsKeys.sessions, queryFn: ({ signal }) => api.get<SessionList>('/settings/sessions', { signal }) });

export const routingQuery = () =>
  queryOptions({ queryKey: settingsKeys.routing, queryFn: ({ signal }) => api.get<RoutingSettings>('/settings/routing', { signal }) });

/** Saves (or, with null, clears) the account's default routing policy. */
export function useSaveRouting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: RoutingPolicy | null) => api.put<RoutingSettings>('/settings/routing', { policy }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.routing, saved),
  });
}

/** Mutations that return the updated user refresh the auth store with it. */
const withUser = async (request: Promise<UserResponse>) => {
  const { user } = await request;
  authStore.setUser(user);
  return user;
};

export const useUpdateProfile = () =>
  useMutation({ mutationFn: (input: UpdateProfileInput) => withUser(api.patch<UserResponse>('/settings/profile', input)) });

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<{ ok: true; message?: string }>('/settings/password', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions }),
  });
}

export const useSaveProviderKey = () =>
  useMutation({
    mutationFn: ({ provider, key, endpoint }: { provider: ProviderId; key: string; endpoint?: string }) =>
      withUser(api.post<UserResponse>(`/settings/provider-keys/${provider}`, endpoint ? { key, endpoint } : { key })),
  });

export const useRemoveProviderKey = () =>
  useMutation({ mutationFn: (provider: ProviderId) => withUser(api.delete<UserResponse>(`/settings/provider-keys/${provider}`)) });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ ok: true }>(`/settings/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions }),
  });
}

export const useDeleteAccount = () =>
  useMutation({
    mutationFn: (input: { confirmation: string; currentPassword?: string }) => api.post<{ ok: true }>('/settings/delete-account', input),
  });
