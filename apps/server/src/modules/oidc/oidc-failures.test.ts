import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { FakeIssuer } from './test-support/fake-issuer.ts';
import { Browser, browserSecrets, ORIGIN, s256 } from './test-support/sso-flow.ts';

describe('single sign-on: malformed provider answers and the per-client limit', () => {
  let harness: TestApp;
  const google = new FakeIssuer({ clientId: 'google-client', clientSecret: 'google-secret' });
  // GitHub's user API answering an id that is not a number.
  const github = new FakeIssuer({ clientId: 'gh-client', clientSecret: 'gh-secret', claims: { id: 'not-a-number' } });

  beforeAll(async () => {
    await Promise.all([google.start(), github.start()]);
    harness = await createTestApp({
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_ISSUER: google.issuer,
      GITHUB_CLIENT_ID: 'gh-client',
      GITHUB_CLIENT_SECRET: 'gh-secret',
      GITHUB_AUTHORIZE_URL: `${github.url}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${github.url}/login/oauth/access_token`,
      GITHUB_API_URL: github.url,
    });
  });
  afterAll(async () => {
    await harness.close();
    await Promise.all([google.close(), github.close()]);
  });

  it('a GitHub profile that does not fit is a clear 400, and no session', async () => {
    const browser = new Browser(harness.app);
    const secrets = browserSecrets();
    const start = await browser.start('github', secrets);
    expect(start.statusCode).toBe(200);
    const code = (await browser.authorizeAtExternal(start.json().authorizationUrl)).searchParams.get('code') ?? '';
    const response = await browser.callback('github', code, secrets);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'bad_request',
      message: 'The sign-in provider sent an unreadable answer for your GitHub profile.',
    });
    expect(await browser.signedIn()).toBe(false);
  });

  it('provider metadata that does not fit is a clear 400', async () => {
    google.discoveryOverride = { token_endpoint: 'not a url', jwks_uri: undefined };
    try {
      const response = await new Browser(harness.app).start('google', browserSecrets());
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'bad_request',
        message: 'The sign-in provider sent an unreadable answer for the provider metadata.',
      });
    } finally {
      google.discoveryOverride = {};
    }
    // Not cached: the provider's fixed metadata is read again.
    expect((await new Browser(harness.app).start('google', browserSecrets())).statusCode).toBe(200);
  });

  it('counts an IPv6 /64 as one client', async () => {
    // Valid starts except for a foreign redirect URI: refused with 400 after the limit has counted them.
    const attempt = (remoteAddress: string) => {
      const { state, nonce, codeVerifier } = browserSecrets();
      return harness.app.inject({
        method: 'POST',
        url: '/api/v1/auth/oidc/start',
        remoteAddress,
        headers: { host: '127.0.0.1:8080', origin: ORIGIN },
        payload: {
          provider: 'google',
          state,
          nonce,
          codeChallenge: s256(codeVerifier),
          redirectUri: 'https://elsewhere.example/auth/callback',
        },
      });
    };
    for (let index = 0; index < 30; index += 1) expect((await attempt(`2001:db8:77:1:${index.toString(16)}::1`)).statusCode).toBe(400);
    const limited = await attempt('2001:db8:77:1:ffff::9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another /64 is another client.
    expect((await attempt('2001:db8:77:2::1')).statusCode).toBe(400);
  });
});
