import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '~/lib/auth';
import { signInDestination } from '~/lib/next-path';

/**
 * /login and /register send an already signed-in visitor to /dashboard (spec route table), or
 * to the dashboard page named in `?next=`.
 * Decided once, when the server has confirmed the session: a sign-in made on this page
 * afterwards navigates by itself (to /onboarding after registering) without this racing it.
 */
export function useRedirectIfSignedIn(): void {
  const { isAuthenticated, isLoading } = useAuth();
  const navigate = useNavigate();
  const decided = useRef(false);
  useEffect(() => {
    if (decided.current || isLoading) return;
    decided.current = true;
    if (isAuthenticated) navigate(signInDestination(window.location.search), { replace: true });
  }, [isAuthenticated, isLoading, navigate]);
}
