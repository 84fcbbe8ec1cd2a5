import type { PublicUser } from '@conductor/shared';
import { describe, expect, it } from 'vitest';
import { authStore } from './auth';
import { queryClient } from './query-client';

const account = (id: string) => ({ id, name: id, email: `${id}@example.org`, plan: 'free', apiKeys: [] }) as unknown as PublicUser;
const cached = () => queryClient.getQueryData(['api-keys']);

describe('query cache ownership', () => {
  it('keeps the cache across its user’s updates and sign-outs, and drops it before another user’s pages render', () => {
    authStore.signedIn(account('ada'));
    queryClient.setQueryData(['api-keys'], ['ada’s key']);
    authStore.setUser({ ...account('ada'), name: 'Ada L.' });
    expect(cached()).toEqual(['ada’s key']);

    // Signed out: the dashboard still mounted must not refetch (it would get 401s).
    authStore.clear();
    expect(cached()).toEqual(['ada’s key']);
    authStore.signedIn(account('ada'));
    expect(cached()).toEqual(['ada’s key']);

    authStore.clear();
    authStore.signedIn(account('grace'));
    expect(cached()).toBeUndefined();
  });
});
