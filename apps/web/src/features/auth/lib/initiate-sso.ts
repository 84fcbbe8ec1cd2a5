import { MESSAGES, TIMEOUTS_MS } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import type { SsoProviderOption } from '@conductor/shared/schemas/sso';
import { toast } from '~/lib/toast';
import { startSso } from '../api/sso';
import { canUsePkce, randomValue, s256Challenge } from './pkce';
import { clearSsoAttempt, saveSsoAttempt, saveSsoReturnTo } from './sso-storage';

/** Long enough to read the toast before the browser leaves for the provider. */
const REDIRECT_DELAY_MS = 1_000;

/**
 * initiateOIDCSignup (spec section 7): a fresh state, nonce and PKCE verifier are kept in
 * session storage with the provider and issuer; the server records the S256 challenge and
 * answers the provider's authorization URL; the browser goes there after the toast.
 */
export async function initiateSso(
  provider: SsoProviderOption,
  options: { returnTo?: string; reauthenticate?: boolean } = {},
): Promise<void> {
  if (!canUsePkce()) {
    // Trying again will not help: say what will (plain http on a host other than localhost has no Web Crypto digest).
    toast.error(MESSAGES.oidc.startFailure, { description: AUTH_COPY.ssoInsecureContext });
    throw new Error(MESSAGES.oidc.startFailureCause);
  }
  try {
    const state = randomValue(32);
    const nonce = randomValue(32);
    const codeVerifier = randomValue(48);
    const codeChallenge = await s256Challenge(codeVerifier);
    saveSsoAttempt({ provider: provider.id, issuer: provider.issuer, state, codeVerifier, nonce });
    saveSsoReturnTo(options.returnTo);
    const { authorizationUrl, issuer } = await startSso({
      provider: provider.id,
      state,
      nonce,
      codeChallenge,
      codeChallengeMethod: 'S256',
      redirectUri: `${window.location.origin}/auth/callback`,
      ...(options.reauthenticate ? { reauthenticate: true } : {}),
    });
    saveSsoAttempt({ provider: provider.id, issuer, state, codeVerifier, nonce });
    toast.info(MESSAGES.oidc.redirecting(provider.name), { duration: TIMEOUTS_MS.oidcRedirectToast });
    await new Promise((resolve) => setTimeout(resolve, REDIRECT_DELAY_MS));
    window.location.assign(authorizationUrl);
  } catch {
    clearSsoAttempt();
    saveSsoReturnTo(undefined);
    // The spec's toast for this action, also after a server error the client announced.
    toast.error(MESSAGES.oidc.startFailure);
    throw new Error(MESSAGES.oidc.startFailureCause);
  }
}
