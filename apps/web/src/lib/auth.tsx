import type { PublicUser, SessionResponse } from '@conductor/shared';
import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { toast } from './toast';
import { api, notifyUnauthorized, onServerError, onUnauthorized } from './api-client';
import { loadMessages } from './messages';

/** The public auth key: local storage keeps only the non-secret `{ user, isAuthenticated }` snapshot. */
export const AUTH_STORAGE_KEY = 'conductor-auth';

export interface AuthState {
  user: PublicUser | null;
  isAuthenticated: boolean;
  isLoading: boolean;
}

const SIGNED_OUT: AuthState = { user: null, isAuthenticated: false, isLoading: false };
const SERVER_SNAPSHOT: AuthState = { user: null, isAuthenticated: false, isLoading: true };

let state: AuthState = SERVER_SNAPSHOT;
let initialised = false;
/**
 * Counts sign-ins and sign-outs on this page. A session check answers for the moment it was sent:
 * one sent before the user signed in (the check every page load starts) must not sign them out
 * again when it lands afterwards, nor one sent before a sign-out sign them back in.
 */
let authEpoch = 0;
const listeners = new Set<() => void>();

function readSnapshot(): AuthState {
  try {
    const raw = window.localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return { ...SIGNED_OUT, isLoading: true };
    const parsed = JSON.parse(raw) as { user?: PublicUser; isAuthenticated?: boolean };
    if (parsed.isAuthenticated && parsed.user) {
      // A snapshot from before `hasPassword` existed: e-mail accounts have one (the session check corrects it).
      const user = { ...parsed.user, hasPassword: parsed.user.hasPassword ?? parsed.user.authMethod === 'email' };
      return { user, isAuthenticated: true, isLoading: true };
    }
  } catch {
    // A corrupt snapshot is treated as signed out.
  }
  return { ...SIGNED_OUT, isLoading: true };
}

function ensureInitialised(): void {
  if (initialised || typeof window === 'undefined') return;
  initialised = true;
  state = readSnapshot();
}

function setState(next: AuthState): void {
  state = next;
  try {
    if (next.isAuthenticated && next.user) {
      window.localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: next.user, isAuthenticated: true }));
    } else if (!next.isLoading) {
      window.localStorage.removeItem(AUTH_STORAGE_KEY);
    }
  } catch {
    // Storage may be unavailable (private mode); the session cookie still works.
  }
  for (const listener of listeners) listener();
}

export const authStore = {
  subscribe(listener: () => void) {
    ensureInitialised();
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot(): AuthState {
    ensureInitialised();
    return state;
  },
  getServerSnapshot(): AuthState {
    return SERVER_SNAPSHOT;
  },
  setUser(user: PublicUser): void {
    setState({ user, isAuthenticated: true, isLoading: false });
  },
  /** After sign-in, registration or single sign-on: the user the server just answered with is current. */
  signedIn(user: PublicUser): void {
    authEpoch += 1;
    lastFetchedAt = Date.now();
    setState({ user, isAuthenticated: true, isLoading: false });
  },
  clear(): void {
    authEpoch += 1;
    setState(SIGNED_OUT);
  },
};

let inflight: Promise<AuthState> | null = null;
let lastFetchedAt = 0;
const SESSION_FRESH_MS = 2_000;

/** Asks the server who is signed in (deduplicated; fresh for two seconds). */
export function loadSession(options: { force?: boolean } = {}): Promise<AuthState> {
  ensureInitialised();
  if (!options.force && !state.isLoading && Date.now() - lastFetchedAt < SESSION_FRESH_MS) return Promise.resolve(state);
  const epoch = authEpoch;
  inflight ??= api
    .get<SessionResponse>('/auth/session', { skipAuthHandling: true })
    .then((session) => {
      // Overtaken by a sign-in or sign-out on this page: what it did stands (and is the answer).
      if (epoch !== authEpoch) return state;
      lastFetchedAt = Date.now();
      if (session.isAuthenticated) authStore.setUser(session.user);
      else {
        // A session confirmed on this page that the server no longer knows has ended (expired, or
        // signed out elsewhere): the same logout and toast as a 401, whichever check saw it first.
        if (state.isAuthenticated && !state.isLoading) notifyUnauthorized();
        authStore.clear();
      }
      return state;
    })
    .catch(() => {
      // Server unreachable: keep the snapshot but stop loading.
      if (epoch === authEpoch) setState({ ...state, isLoading: false });
      return state;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/logout', {}, { skipAuthHandling: true });
  } catch {
    // Signing out locally still matters if the server call fails.
  }
  authStore.clear();
  lastFetchedAt = Date.now();
}

const AuthContext = createContext<AuthState>(SERVER_SNAPSHOT);

/** How often returning to the tab re-checks the session with the server. */
const REVALIDATE_INTERVAL_MS = 15_000;

/**
 * While signed in, coming back to the tab asks the server whether the session still stands
 * (it may have expired, been revoked by a password reset, or ended by a sign-out elsewhere).
 * The check goes through the central client, so a 401 logs out like any other.
 */
function useSessionRevalidation(): void {
  const lastCheck = useRef(0);
  useEffect(() => {
    const revalidate = () => {
      if (document.visibilityState !== 'visible' || !authStore.getSnapshot().isAuthenticated) return;
      if (Date.now() - lastCheck.current < REVALIDATE_INTERVAL_MS) return;
      lastCheck.current = Date.now();
      const epoch = authEpoch;
      api
        .get<{ user: PublicUser }>('/auth/me')
        .then(({ user }) => {
          if (epoch === authEpoch) authStore.setUser(user);
        })
        .catch(() => undefined);
    };
    window.addEventListener('focus', revalidate);
    document.addEventListener('visibilitychange', revalidate);
    return () => {
      window.removeEventListener('focus', revalidate);
      document.removeEventListener('visibilitychange', revalidate);
    };
  }, []);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const value = useSyncExternalStore(authStore.subscribe, authStore.getSnapshot, authStore.getServerSnapshot);
  const navigate = useNavigate();
  useSessionRevalidation();
  useEffect(() => {
    void loadSession();
    const offUnauthorized = onUnauthorized(() => {
      if (!authStore.getSnapshot().isAuthenticated) return;
      authStore.clear();
      lastFetchedAt = Date.now();
      void loadMessages().then((messages) => toast.error(messages.sessionExpired, { id: 'session-expired' }));
      // Off a page that needs a session, in-app (the toast stays on screen); a public page (the docs,
      // a half-typed support ticket) stays as it is, signed out.
      if (/^\/(dashboard|onboarding)(\/|$)/.test(window.location.pathname)) navigate('/login', { replace: true });
    });
    const offServerError = onServerError(() => {
      void loadMessages().then((messages) => toast.error(messages.serverError, { id: 'server-error' }));
    });
    return () => {
      offUnauthorized();
      offServerError();
    };
  }, [navigate]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/** The plan as users read it: capitalised (spec), and byo-keys by its product name. */
export function planLabel(plan: PublicUser['plan']): string {
  if (plan === 'byo-keys') return 'Bring Your Own Keys';
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}
