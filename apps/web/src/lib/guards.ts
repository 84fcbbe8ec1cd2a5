import { useEffect } from 'react';
import { redirect, useNavigate } from 'react-router';
import { loadSession, useAuth } from './auth';

/** clientLoader guard: signed-in users only. */
export async function requireUser() {
  const session = await loadSession();
  if (!session.isAuthenticated || !session.user) throw redirect('/login');
  return session.user;
}

/** clientLoader guard for the dashboard: signed in and onboarding completed. */
export async function requireOnboardedUser() {
  const user = await requireUser();
  if (!user.onboardingCompleted) throw redirect('/onboarding');
  return user;
}

/** Login and register send signed-in users to the dashboard (checked against the server). */
export function useRedirectIfAuthenticated(): void {
  const { isAuthenticated, isLoading } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (!isLoading && isAuthenticated) navigate('/dashboard', { replace: true });
  }, [isAuthenticated, isLoading, navigate]);
}
