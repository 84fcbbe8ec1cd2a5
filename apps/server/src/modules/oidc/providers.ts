import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { SSO_PROVIDER_IDS, SSO_PROVIDER_NAMES, type SsoProviderId } from '@conductor/shared/schemas/sso';
import type { Env } from '../../config/env.ts';
import { AppError } from '../../lib/errors.ts';
import { isLoopbackHost } from '../../lib/loopback.ts';
import { createDiscovery } from './discovery.ts';
import { createGithubClient } from './github-client.ts';
import { createOidcClient } from './oidc-client.ts';
import type { SsoProvider } from './provider-types.ts';

export type SsoProviders = Record<SsoProviderId, SsoProvider>;

export interface DemoIssuerAccess {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Reaches the embedded issuer in-process. */
  fetch: typeof fetch;
}

/** Provider endpoints must be https, except on loopback (local fakes) or in tests. */
function insecureEndpoint(env: Env, urls: string[]): string | undefined {
  if (env.NODE_ENV === 'test') return undefined;
  return urls.find((value) => {
    const url = new URL(value);
    return url.protocol !== 'https:' && !isLoopbackHost(url.hostname);
  });
}

function unavailable(id: SsoProviderId, issuer: string, note: string): SsoProvider {
  const refuse = async (): Promise<never> => {
    throw new AppError('bad_request', note);
  };
  return { id, name: SSO_PROVIDER_NAMES[id], issuer, configured: false, note, authorizationUrl: refuse, exchange: refuse };
}

/**
 * The four sign-on providers of the SSO tab. Google, Microsoft and GitHub are enabled by
 * their client id and secret; their endpoints come from env so tests aim them at local fakes.
 */
export function createSsoProviders(env: Env, demo: DemoIssuerAccess, fetcher: typeof fetch = globalThis.fetch): SsoProviders {
  const discovery = createDiscovery();
  const demoClient = createOidcClient({
    id: 'demo',
    issuer: demo.issuer,
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
    fetch: demo.fetch,
    discovery,
    endpoints: {
      issuer: demo.issuer,
      authorization_endpoint: `${demo.issuer}/auth`,
      token_endpoint: `${demo.issuer}/token`,
      jwks_uri: `${demo.issuer}/jwks`,
    },
  });

  const external = (id: 'google' | 'microsoft', issuer: string, clientId?: string, clientSecret?: string): SsoProvider => {
    if (!clientId || !clientSecret) return unavailable(id, issuer, AUTH_COPY.ssoNotConfigured(SSO_PROVIDER_NAMES[id]));
    const insecure = insecureEndpoint(env, [issuer]);
    if (insecure) return unavailable(id, issuer, `${SSO_PROVIDER_NAMES[id]} sign-in needs an https issuer.`);
    return createOidcClient({ id, issuer, clientId, clientSecret, fetch: fetcher, discovery, multiTenant: id === 'microsoft' });
  };

  const githubIssuer = new URL(env.GITHUB_AUTHORIZE_URL).origin;
  const github = (): SsoProvider => {
    if (!env.GITHUB_CLIENT_ID || !env.GITHUB_CLIENT_SECRET)
      return unavailable('github', githubIssuer, AUTH_COPY.ssoNotConfigured('GitHub'));
    if (insecureEndpoint(env, [env.GITHUB_AUTHORIZE_URL, env.GITHUB_TOKEN_URL, env.GITHUB_API_URL])) {
      return unavailable('github', githubIssuer, 'GitHub sign-in needs https endpoints.');
    }
    return createGithubClient({
      authorizeUrl: env.GITHUB_AUTHORIZE_URL,
      tokenUrl: env.GITHUB_TOKEN_URL,
      apiUrl: env.GITHUB_API_URL,
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      fetch: fetcher,
    });
  };

  const providers: SsoProviders = {
    google: external('google', env.GOOGLE_ISSUER, env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET),
    microsoft: external('microsoft', env.MICROSOFT_ISSUER, env.MICROSOFT_CLIENT_ID, env.MICROSOFT_CLIENT_SECRET),
    github: github(),
    demo: demoClient,
  };
  // Keep the order of the spec's buttons.
  return Object.fromEntries(SSO_PROVIDER_IDS.map((id) => [id, providers[id]])) as SsoProviders;
}
