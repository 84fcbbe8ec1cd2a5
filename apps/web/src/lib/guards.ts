import { redirect } from 'react-router';
import { loadSession } from './auth';

/**
 * The sign-in page for a visitor the guard turns away: a dashboard page other than the overview
 * is named in `?next=`, so the sign-in returns there (see `signInDestination`).
 */
function loginFor(request?: Request): string {
  if (!request) return '/login';
  const url = new URL(request.url);
  return url.pathname.startsWith('/dashboard/') ? `/login?next=${encodeURIComponent(url.pathname + url.search)}` : '/login';
}

/** clientLoader guard: signed-in users only. */
export async function requireUser(request?: Request) {
  const session = await loadSession();
  if (!session.isAuthenticated || !session.user) throw redirect(loginFor(request));
  return session.user;
}

/** clientLoader guard for the dashboard: signed in and onboarding completed. */
export async function requireOnboardedUser(request?: Request) {
  const user = await requireUser(request);
  if (!user.onboardingCompleted) throw redirect('/onboarding');
  return user;
}
