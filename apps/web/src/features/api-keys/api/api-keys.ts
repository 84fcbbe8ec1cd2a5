import type { ApiKeyList, ApiKeyView, CreateApiKeyInput, CreatedApiKey } from '@conductor/shared/schemas/api-keys';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '~/lib/api-client';

export const apiKeyKeys = { all: ['api-keys'] as const };

export const apiKeysQuery = () =>
  queryOptions({ queryKey: apiKeyKeys.all, queryFn: ({ signal }) => api.get<ApiKeyList>('/api-keys', { signal }) });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) => api.post<CreatedApiKey>('/api-keys', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRenameApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api.patch<ApiKeyView>(`/api-keys/${encodeURIComponent(id)}`, { name }),
    // Also on failure: a 404 means the key changed elsewhere (revoked in another tab), and the list must say so.
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<ApiKeyView>(`/api-keys/${encodeURIComponent(id)}`),
    // Also on failure: a 404 (revoked in another tab) must not leave the row showing "active".
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
