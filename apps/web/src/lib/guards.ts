import { redirect } from 'react-router';
import { withNext } from '~/lib/next-path';
import { loadSession } from './auth';

/**
 * The dashboard page a guard turns a visitor away from, to be named in `?next=` so sign-in or
 * onboarding returns there (see `signInDestination`); null for the overview, where both go anyway.
 */
function requestedPage(request?: Request): string | null {
  if (!request) return null;
  const url = new URL(request.url);
  return url.pathname.startsWith('/dashboard/') ? url.pathname + url.search : null;
}

/** clientLoader guard: signed-in users only. */
export async function requireUser(request?: Request) {
  const session = await loadSession();
  if (!session.isAuthenticated || !session.user) throw redirect(withNext('/login', requestedPage(request)));
  return session.user;
}

/**
 * clientLoader guard for the dashboard: signed in and onboarding completed. Onboarding keeps the
 * page asked for, as registration and single sign-on do: a plan chosen on the pricing page survives it.
 */
export async function requireOnboardedUser(request?: Request) {
  const user = await requireUser(request);
  if (!user.onboardingCompleted) throw redirect(withNext('/onboarding', requestedPage(request)));
  return user;
}
