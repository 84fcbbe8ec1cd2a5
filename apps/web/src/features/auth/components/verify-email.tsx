import { AUTH_COPY, VERIFY_EMAIL_OTHER_ACCOUNT } from '@conductor/shared/schemas/auth-copy';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '~/lib/api-client';
import { loadSession } from '~/lib/auth';
import { confirmEmail, rememberPendingConfirmation } from '../api/email-verification';

type State = { kind: 'confirming' } | { kind: 'done'; message: string } | { kind: 'sign-in' } | { kind: 'failed'; message: string };

/**
 * Confirms the address with the token of the e-mailed link as soon as the page opens, for the
 * account signed in here. Signed out, the token waits in this tab while the user signs in, and
 * the dashboard confirms it then (the server accepts a link only from its own account's session).
 */
export function VerifyEmail({ token }: { token: string | null }) {
  const [state, setState] = useState<State>(
    token ? { kind: 'confirming' } : { kind: 'failed', message: AUTH_COPY.verifyEmailMissingToken },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    confirmEmail(token).then(
      ({ message }) => {
        // The dashboard stops asking. A session fetch already under way may predate the confirmation: one more follows it.
        void loadSession({ force: true }).then(() => loadSession({ force: true }));
        if (current) setState({ kind: 'done', message });
      },
      (error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.status === 401) {
          rememberPendingConfirmation(token);
          setState({ kind: 'sign-in' });
          return;
        }
        // A 400 is the link itself; a good link for another account says how to use it; anything
        // else (server or network) says what it was.
        const message =
          error instanceof ApiError && error.code === VERIFY_EMAIL_OTHER_ACCOUNT
            ? AUTH_COPY.verifyEmailOtherAccount
            : error instanceof ApiError && error.status === 400
              ? AUTH_COPY.verifyEmailInvalid
              : error instanceof Error
                ? error.message
                : AUTH_COPY.verifyEmailInvalid;
        setState({ kind: 'failed', message });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (state.kind === 'confirming')
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Confirming your email address…
      </p>
    );
  if (state.kind === 'sign-in')
    return (
      <div className="space-y-4">
        <p role="status" className="rounded-lg bg-muted px-4 py-3 text-sm">
          {AUTH_COPY.verifyEmailSignIn}
        </p>
        <Link to="/login" className="inline-block text-sm font-medium text-primary hover:underline">
          Sign in
        </Link>
      </div>
    );
  return (
    <div className="space-y-4">
      {state.kind === 'done' ? (
        <p role="status" className="rounded-lg bg-success-soft px-4 py-3 text-sm text-success">
          {state.message}
        </p>
      ) : (
        <p role="alert" className="rounded-lg bg-danger-soft px-4 py-3 text-sm text-danger">
          {state.message}
        </p>
      )}
      <Link to="/dashboard" className="inline-block text-sm font-medium text-primary hover:underline">
        Go to your dashboard
      </Link>
    </div>
  );
}
