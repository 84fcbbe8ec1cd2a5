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

describe('a session check overtaken by a sign-in or sign-out', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    authStore.clear();
  });

  /** fetch answers only when the test says so, in the order the test chooses. */
  function heldFetch() {
    const pending: Array<(body: unknown) => void> = [];
    const fetch = vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          pending.push((body) => resolve(new Response(JSON.stringify(body), { status: 200 })));
        }),
    );
    vi.stubGlobal('fetch', fetch);
    return { fetch, answer: (index: number, body: unknown) => pending[index]?.(body) };
  }

  it('a signed-out answer to the check the page started before the sign-in does not sign the user out again', async () => {
    const user = { id: 'u3', name: 'Ada', email: 'ada@example.org', onboardingCompleted: false } as PublicUser;
    const heard = vi.fn();
    const off = onUnauthorized(heard);
    try {
      authStore.clear();
      const held = heldFetch();
      const pageLoadCheck = loadSession({ force: true });
      // The single sign-on exchange answers first and sets the cookie.
      authStore.signedIn(user);
      held.answer(0, { isAuthenticated: false });
      await pageLoadCheck;
      expect(authStore.getSnapshot()).toMatchObject({ isAuthenticated: true, user: { id: 'u3' } });
      expect(heard).not.toHaveBeenCalled();
    } finally {
      off();
    }
  });

  it('a check asked for after the sign-in, while the older one is out, answers with the signed-in user', async () => {
    const user = { id: 'u4', name: 'Ada', email: 'ada@example.org' } as PublicUser;
    authStore.clear();
    const held = heldFetch();
    void loadSession({ force: true });
    authStore.signedIn(user);
    // The guard of the page the sign-in leads to: the sign-in just happened, so it is current.
    await expect(loadSession()).resolves.toMatchObject({ isAuthenticated: true, user: { id: 'u4' } });
    const forced = loadSession({ force: true });
    held.answer(0, { isAuthenticated: false });
    await expect(forced).resolves.toMatchObject({ isAuthenticated: true, user: { id: 'u4' } });
    expect(held.fetch).toHaveBeenCalledTimes(1);
  });

  it('a signed-in answer to a check sent before a sign-out does not sign the user back in', async () => {
    const user = { id: 'u5', name: 'Ada', email: 'ada@example.org' } as PublicUser;
    authStore.signedIn(user);
    const held = heldFetch();
    const check = loadSession({ force: true });
    authStore.clear();
    held.answer(0, { isAuthenticated: true, user });
    await check;
    expect(authStore.getSnapshot()).toMatchObject({ isAuthenticated: false, user: null });
    expect(window.localStorage.getItem('conductor-auth')).toBeNull();
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
