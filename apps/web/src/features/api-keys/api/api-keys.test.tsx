import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { apiKeyKeys, useRenameApiKey, useRevokeApiKey } from './api-keys';

const { api } = vi.hoisted(() => ({ api: { delete: vi.fn(), patch: vi.fn(), post: vi.fn(), get: vi.fn() } }));
vi.mock('~/lib/api-client', () => ({ api }));

function setup() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { invalidate, wrapper };
}

describe('API key mutations', () => {
  it('refreshes the list when a revoke fails (e.g. the key was revoked in another tab: 404), not only when it succeeds', async () => {
    const { invalidate, wrapper } = setup();
    api.delete.mockRejectedValueOnce(new Error('API key not found'));
    const { result } = renderHook(() => useRevokeApiKey(), { wrapper });
    await expect(result.current.mutateAsync('key_gone')).rejects.toThrow('API key not found');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: apiKeyKeys.all });
  });

  it('refreshes the list when a rename fails too', async () => {
    const { invalidate, wrapper } = setup();
    api.patch.mockRejectedValueOnce(new Error('API key not found'));
    const { result } = renderHook(() => useRenameApiKey(), { wrapper });
    await expect(result.current.mutateAsync({ id: 'key_gone', name: 'x' })).rejects.toThrow('API key not found');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: apiKeyKeys.all });
  });
});
