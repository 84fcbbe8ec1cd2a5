import { afterEach, describe, expect, it } from 'vitest';
import { clearSsoAttempt, readSsoAttempt, SSO_STORAGE_KEYS, saveSsoAttempt } from './sso-storage';

describe('sign-on attempt in session storage', () => {
  afterEach(() => window.sessionStorage.clear());

  it('keeps provider, issuer, state, verifier and nonce, and clears all of them', () => {
    const attempt = { provider: 'demo' as const, issuer: 'http://127.0.0.1/oidc', state: 's', codeVerifier: 'v', nonce: 'n' };
    saveSsoAttempt(attempt);
    expect(window.sessionStorage.getItem(SSO_STORAGE_KEYS.state)).toBe('s');
    expect(readSsoAttempt()).toEqual(attempt);
    window.sessionStorage.setItem('unrelated', 'kept');
    clearSsoAttempt();
    expect(readSsoAttempt()).toEqual({
      provider: undefined,
      issuer: undefined,
      state: undefined,
      codeVerifier: undefined,
      nonce: undefined,
    });
    expect(window.sessionStorage.getItem('unrelated')).toBe('kept');
  });
});
