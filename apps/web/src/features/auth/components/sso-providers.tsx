import { SSO_PROVIDER_IDS, SSO_PROVIDER_NAMES, type SsoProviderId, type SsoProviderOption } from '@conductor/shared/schemas/sso';
import { Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClasses } from '~/components/ui/button';
import { usePublicQuery } from '~/lib/public-query';
import { providersQueryOptions } from '../api/sso';
import { initiateSso } from '../lib/initiate-sso';
import { nextPage } from '~/lib/next-path';
import { ProviderMark } from './provider-mark';

const PLACEHOLDERS: SsoProviderOption[] = SSO_PROVIDER_IDS.map((id) => ({
  id,
  name: SSO_PROVIDER_NAMES[id],
  issuer: '',
  configured: false,
  note: null,
}));

/** The SSO/OIDC tab: one button per provider; an unconfigured provider's button is disabled and says why. */
export function SsoProviders() {
  const providers = usePublicQuery(providersQueryOptions);
  const [pending, setPending] = useState<SsoProviderId | null>(null);
  const list = providers.data?.providers ?? PLACEHOLDERS;

  // Back from the provider may restore this page from the back/forward cache, frozen mid-redirect: start afresh.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setPending(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const start = async (provider: SsoProviderOption) => {
    setPending(provider.id);
    try {
      // Back from the provider to the page the visitor came for (`?next=`: a plan chosen on the pricing page), if any.
      const next = nextPage(window.location.search);
      await initiateSso(provider, next ? { returnTo: next } : {});
    } catch {
      setPending(null);
    }
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        Sign up with your identity provider. We verify your email with them, so there is no password to remember.
      </p>
      {providers.isError && (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          Could not load the sign-in providers. Please reload the page.
        </p>
      )}
      <ul className="space-y-3" aria-busy={providers.isPending}>
        {list.map((provider) => {
          const noteId = `sso-note-${provider.id}`;
          const loading = providers.isPending;
          return (
            <li key={provider.id}>
              <button
                type="button"
                className={buttonClasses(provider.id === 'demo' ? 'primary' : 'secondary', 'lg', 'w-full justify-start gap-3 text-sm')}
                disabled={loading || !provider.configured || pending !== null}
                aria-describedby={provider.note ? noteId : undefined}
                onClick={() => void start(provider)}
              >
                {pending === provider.id ? (
                  <Loader2 className="size-5 animate-spin" aria-hidden="true" />
                ) : (
                  <ProviderMark provider={provider.id} />
                )}
                <span>Continue with {provider.name}</span>
              </button>
              {provider.note && (
                <p id={noteId} className="mt-1.5 text-xs text-muted-foreground">
                  {provider.note}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-muted-foreground">
        Demo OIDC is Conductor&apos;s built-in identity provider: a real OpenID Connect sign-in with a private demo identity for this
        browser.
      </p>
    </div>
  );
}
