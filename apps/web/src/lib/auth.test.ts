import type { PublicUser } from '@conductor/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onUnauthorized } from './api-client';
import { authStore, loadSession, planLabel } from './auth';

describe('planLabel', () => {
  it('capitalises the plan and names byo-keys in full', () => {
    expect(planLabel('free')).toBe('Free');
    expect(planLabel('enterprise')).toBe('Enterprise');
    expect(planLabel('byo-keys')).toBe('Bring Your Own Keys');
  });
});

describe('session check', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a session confirmed on this page that the server no longer knows logs out like a 401 (the toast’s listener hears it)', async () => {
    const user = { id: 'u1', name: 'Ada', email: 'ada@example.org' } as PublicUser;
    const heard = vi.fn();
    const off = onUnauthorized(heard);
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response(JSON.stringify({ isAuthenticated: true, user }), { status: 200 })),
      );
      await loadSession({ force: true });
      expect(authStore.getSnapshot().isAuthenticated).toBe(true);
      expect(heard).not.toHaveBeenCalled();

      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response(JSON.stringify({ isAuthenticated: false }), { status: 200 })),
      );
      await loadSession({ force: true });
      expect(heard).toHaveBeenCalledTimes(1);
      expect(authStore.getSnapshot().isAuthenticated).toBe(false);

      // Already signed out: nothing more to say.
      await loadSession({ force: true });
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      off();
    }
  });
});

describe('stored snapshot', () => {
  afterEach(() => window.localStorage.clear());

  it('fills in hasPassword for a snapshot stored before it existed: e-mail accounts have one, single sign-on ones not', async () => {
    for (const [authMethod, expected] of [
      ['email', true],
      ['oidc', false],
    ] as const) {
      window.localStorage.setItem('conductor-auth', JSON.stringify({ isAuthenticated: true, user: { id: 'u2', name: 'Ada', authMethod } }));
      vi.resetModules();
      const { authStore: fresh } = await import('./auth');
      expect(fresh.getSnapshot().user).toMatchObject({ id: 'u2', hasPassword: expected });
    }
  });
});
