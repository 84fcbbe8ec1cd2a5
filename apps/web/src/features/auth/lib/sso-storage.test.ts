import { afterEach, describe, expect, it } from 'vitest';
import {
  clearSsoAttempt,
  isInternalPath,
  readSsoAttempt,
  SSO_STORAGE_KEYS,
  saveSsoAttempt,
  saveSsoReturnTo,
  takeSsoReturnTo,
} from './sso-storage';

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

  it('keeps a return path of this app only, and gives it back once', () => {
    saveSsoReturnTo('/dashboard/settings#profile');
    expect(takeSsoReturnTo()).toBe('/dashboard/settings#profile');
    expect(takeSsoReturnTo()).toBeUndefined();
    for (const outside of [
      'https://evil.example.com/',
      '//evil.example.com',
      '/\\evil.example.com',
      '/\t/evil.example.com',
      '/\n/evil.example.com',
      'javascript:alert(1)',
      '',
    ]) {
      expect(isInternalPath(outside), outside).toBe(false);
      saveSsoReturnTo(outside);
      expect(takeSsoReturnTo()).toBeUndefined();
    }
    // Planted by hand (another script on the page): still not followed.
    window.sessionStorage.setItem('oidc_return_to', '//evil.example.com');
    expect(takeSsoReturnTo()).toBeUndefined();
    saveSsoReturnTo('/dashboard');
    saveSsoReturnTo(undefined);
    expect(takeSsoReturnTo()).toBeUndefined();
  });
});
