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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<ApiKeyView>(`/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
