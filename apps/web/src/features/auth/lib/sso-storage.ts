import type { SsoProviderId } from '@conductor/shared/schemas/sso';

/** The items the sign-on start keeps in session storage for the callback (spec section 4), plus the nonce. */
export const SSO_STORAGE_KEYS = {
  provider: 'oidc_provider',
  issuer: 'oidc_issuer',
  state: 'oidc_state',
  codeVerifier: 'oidc_code_verifier',
  nonce: 'oidc_nonce',
} as const;

export interface SsoAttempt {
  provider: SsoProviderId;
  issuer: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

export function saveSsoAttempt(attempt: SsoAttempt): void {
  for (const [field, key] of Object.entries(SSO_STORAGE_KEYS)) {
    window.sessionStorage.setItem(key, attempt[field as keyof SsoAttempt]);
  }
}

export function readSsoAttempt(): Partial<SsoAttempt> {
  const read = (key: string) => window.sessionStorage.getItem(key) ?? undefined;
  return {
    provider: read(SSO_STORAGE_KEYS.provider) as SsoProviderId | undefined,
    issuer: read(SSO_STORAGE_KEYS.issuer),
    state: read(SSO_STORAGE_KEYS.state),
    codeVerifier: read(SSO_STORAGE_KEYS.codeVerifier),
    nonce: read(SSO_STORAGE_KEYS.nonce),
  };
}

/** Cleared after every callback, whatever its outcome. */
export function clearSsoAttempt(): void {
  for (const key of Object.values(SSO_STORAGE_KEYS)) window.sessionStorage.removeItem(key);
}

/** Where a signed-in user who signs in again (to confirm a sensitive change) goes back to after the callback. */
const RETURN_TO_KEY = 'oidc_return_to';

/** Only a path of this app (`/…`, never `//host`, `/\\host` or a URL): the callback must not send anyone elsewhere. */
export function isInternalPath(path: string): boolean {
  if (!path.startsWith('/') || /[\\\s]/.test(path) || path.startsWith('//')) return false;
  try {
    const origin = 'https://conductor.invalid';
    return new URL(path, origin).origin === origin;
  } catch {
    return false;
  }
}

export function saveSsoReturnTo(path: string | undefined): void {
  if (path !== undefined && isInternalPath(path)) window.sessionStorage.setItem(RETURN_TO_KEY, path);
  else window.sessionStorage.removeItem(RETURN_TO_KEY);
}

/** Read once: the stored path is removed. */
export function takeSsoReturnTo(): string | undefined {
  const path = window.sessionStorage.getItem(RETURN_TO_KEY) ?? undefined;
  window.sessionStorage.removeItem(RETURN_TO_KEY);
  return path !== undefined && isInternalPath(path) ? path : undefined;
}
