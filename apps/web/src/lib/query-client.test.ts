import type { PublicUser } from '@conductor/shared';
import { describe, expect, it } from 'vitest';
import { authStore } from './auth';
import { queryClient } from './query-client';

const account = (id: string) => ({ id, name: id, email: `${id}@example.org`, plan: 'free', apiKeys: [] }) as unknown as PublicUser;
const cached = () => queryClient.getQueryData(['api-keys']);

describe('query cache ownership', () => {
  it('keeps the cache across the same user’s updates, and drops it at sign-out and when another user signs in', () => {
    authStore.signedIn(account('ada'));
    queryClient.setQueryData(['api-keys'], ['ada’s key']);
    authStore.setUser({ ...account('ada'), name: 'Ada L.' });
    expect(cached()).toEqual(['ada’s key']);

    authStore.clear();
    expect(cached()).toBeUndefined();

    authStore.signedIn(account('ada'));
    queryClient.setQueryData(['api-keys'], ['ada’s key']);
    authStore.signedIn(account('grace'));
    expect(cached()).toBeUndefined();
  });
});
