import { SSO_PROVIDER_NAMES, SsoProviderId } from '@conductor/shared/schemas/sso';
import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { providersQueryOptions } from '~/features/auth/api/sso';
import { initiateSso } from '~/features/auth/lib/initiate-sso';
import { fetchPublicQuery, usePublicQuery } from '~/lib/public-query';

/**
 * A single sign-on account confirms a change of e-mail or its deletion by a recent sign-in (it
 * has no password): this starts one with the account's provider, for this account only (another
 * identity is refused and the current session kept), and comes back to `returnTo`. When this
 * server cannot sign in with that provider any more, signing out would lock the account out: it
 * offers a password instead (a reset link, mailed), which then confirms such changes.
 */
export function SignInAgain({ oidcProvider, returnTo }: { oidcProvider: string | null; returnTo: string }) {
  const providers = usePublicQuery(providersQueryOptions);
  const [pending, setPending] = useState(false);
  const id = SsoProviderId.safeParse(oidcProvider);
  const option = id.success ? providers.data?.providers.find((provider) => provider.id === id.data && provider.configured) : undefined;
  if (!option && providers.isError && providers.data === undefined && id.success) {
    // The list of sign-in providers did not load: say so and offer to try again, rather than nothing.
    return (
      <p role="alert" className="text-sm text-danger" data-testid="sign-in-again-unavailable">
        The sign-in options could not be loaded.{' '}
        <button
          type="button"
          className="text-primary underline underline-offset-4"
          onClick={() => void fetchPublicQuery(providersQueryOptions)}
        >
          Try again
        </button>
      </p>
    );
  }
  if (!option) {
    if (providers.isPending && id.success) return null;
    return (
      <p className="text-sm text-muted-foreground" data-testid="sign-in-again-manual">
        {id.success ? `${SSO_PROVIDER_NAMES[id.data]} sign-in` : 'Your sign-in provider'} is not available on this server. Set a password
        instead:{' '}
        <Link to="/forgot-password" className="text-primary underline underline-offset-4">
          we email you a link
        </Link>
        , and then confirm with your password here.
      </p>
    );
  }
  return (
    <Button
      type="button"
      variant="secondary"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          await initiateSso(option, { returnTo, reauthenticate: true });
        } catch {
          setPending(false);
        }
      }}
    >
      <LogIn className="size-4" aria-hidden="true" />
      {pending ? 'Redirecting...' : `Sign in again with ${option.name}`}
    </Button>
  );
}
