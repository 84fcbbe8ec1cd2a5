import { SSO_PROVIDER_NAMES, SsoProviderId } from '@conductor/shared/schemas/sso';
import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { Button } from '~/components/ui/button';
import { providersQueryOptions } from '~/features/auth/api/sso';
import { initiateSso } from '~/features/auth/lib/initiate-sso';
import { usePublicQuery } from '~/lib/public-query';

/**
 * A single sign-on account confirms a change of e-mail or its deletion by a recent sign-in (it
 * has no password): this starts one with the account's provider and comes back to `returnTo`.
 * Without a provider this page can use (none recorded, or it is no longer configured), it says
 * to sign out and in again.
 */
export function SignInAgain({ oidcProvider, returnTo }: { oidcProvider: string | null; returnTo: string }) {
  const providers = usePublicQuery(providersQueryOptions);
  const [pending, setPending] = useState(false);
  const id = SsoProviderId.safeParse(oidcProvider);
  const option = id.success ? providers.data?.providers.find((provider) => provider.id === id.data && provider.configured) : undefined;
  if (!option) {
    if (providers.isPending && id.success) return null;
    return (
      <p className="text-sm text-muted-foreground" data-testid="sign-in-again-manual">
        Sign out, then sign in again{id.success ? ` with ${SSO_PROVIDER_NAMES[id.data]}` : ''}, and come back here within a few minutes.
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
          await initiateSso(option, { returnTo });
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
