import { MESSAGES, TIMEOUTS_MS } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { CheckCircle2, CircleAlert, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '~/lib/toast';
import { Button } from '~/components/ui/button';
import { authStore } from '~/lib/auth';
import { completeSso } from '../api/sso';
import { withNext } from '~/lib/next-path';
import { clearSsoAttempt, readSsoAttempt, takeSsoReturnTo } from '../lib/sso-storage';

type CallbackView =
  | { status: 'loading' }
  | { status: 'success'; isNewUser: boolean }
  | { status: 'error'; message: string; returnTo?: string | undefined };

/**
 * handleOIDCCallback (spec sections 4 and 8): errors in the spec's order of precedence,
 * the stored attempt cleared in every case, then the server's code exchange.
 */
export function OidcCallback() {
  const navigate = useNavigate();
  const [view, setView] = useState<CallbackView>({ status: 'loading' });
  const started = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const stored = readSsoAttempt();
    clearSsoAttempt();
    const returnTo = takeSsoReturnTo();
    // The code must not linger in the address bar or the history.
    window.history.replaceState(window.history.state, '', window.location.pathname);

    // Signing in again from Settings: a failure offers the way back there (still signed in as before).
    const fail = (message: string) => {
      setView({ status: 'error', message, returnTo });
      toast.error(MESSAGES.oidc.failureToast);
    };
    const error = params.get('error');
    const code = params.get('code');
    const state = params.get('state');
    if (error) return fail(params.get('error_description') || MESSAGES.oidc.providerError(error));
    if (!code || !state) return fail(MESSAGES.oidc.missingParameters);
    if (!stored.state || stored.state !== state) return fail(MESSAGES.oidc.stateMismatch);
    if (!stored.provider || !stored.codeVerifier) return fail(AUTH_COPY.ssoSessionLost);

    const provider = stored.provider;
    completeSso({ provider, code, state, codeVerifier: stored.codeVerifier })
      .then(({ user, isNewUser }) => {
        authStore.signedIn(user);
        setView({ status: 'success', isNewUser });
        toast.success(provider === 'demo' ? MESSAGES.oidc.demoSuccess : MESSAGES.oidc.successToast);
        setTimeout(() => {
          if (mounted.current)
            navigate(user.onboardingCompleted ? (returnTo ?? '/dashboard') : withNext('/onboarding', returnTo), { replace: true });
        }, TIMEOUTS_MS.oidcSuccessRedirect);
      })
      .catch((exception: unknown) =>
        fail(exception instanceof Error && exception.message ? exception.message : MESSAGES.oidc.unknownError),
      );
  }, [navigate]);

  if (view.status === 'loading') {
    return (
      <div className="flex flex-col items-center py-6 text-center" role="status" aria-live="polite">
        <Loader2 className="size-10 animate-spin text-primary" aria-hidden="true" />
        <h1 className="mt-5 text-2xl font-semibold tracking-tight">Completing sign-in…</h1>
        <p className="mt-2 text-sm text-muted-foreground">Verifying your identity with your provider.</p>
      </div>
    );
  }

  if (view.status === 'success') {
    return (
      <div className="flex flex-col items-center py-2 text-center" role="status" aria-live="polite">
        <CheckCircle2 className="size-12 text-success" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight">{view.isNewUser ? 'Welcome to Conductor!' : 'Welcome back!'}</h1>
        <ul className="mt-5 space-y-2 text-left text-sm">
          {MESSAGES.oidc.successLines.map((line) => (
            <li key={line} className="flex items-center gap-2">
              <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
              {line}
            </li>
          ))}
        </ul>
        <p className="mt-5 text-sm text-muted-foreground">Taking you to your account…</p>
      </div>
    );
  }

  return (
    <div className="flex flex-col items-center py-2 text-center">
      <CircleAlert className="size-12 text-danger" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-semibold tracking-tight">Sign-in failed</h1>
      <p role="alert" className="mt-3 max-w-sm text-sm break-words text-muted-foreground">
        {view.message}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Button size="lg" onClick={() => navigate(withNext('/register', view.returnTo))}>
          Try Again
        </Button>
        {view.returnTo?.startsWith('/dashboard/settings') && (
          <Button size="lg" variant="secondary" onClick={() => navigate(view.returnTo ?? '/dashboard')}>
            Back to Settings
          </Button>
        )}
      </div>
    </div>
  );
}
