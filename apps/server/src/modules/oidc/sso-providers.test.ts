import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { sessions, userIdentities, users } from '../../db/schema/index.ts';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { FakeIssuer, type IdTokenMode } from './test-support/fake-issuer.ts';
import { Browser, browserSecrets, ORIGIN, s256 } from './test-support/sso-flow.ts';

const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

describe('Google, Microsoft and GitHub against local fake issuers', () => {
  let harness: TestApp;
  const google = new FakeIssuer({
    clientId: 'google-client',
    clientSecret: 'google-secret',
    claims: { picture: 'https://img.example.test/p.png' },
  });
  const microsoft = new FakeIssuer({ clientId: 'ms-client', clientSecret: 'ms-secret', tenantId: TENANT });
  const github = new FakeIssuer({ clientId: 'gh-client', clientSecret: 'gh-secret' });

  beforeAll(async () => {
    await Promise.all([google.start(), microsoft.start(), github.start()]);
    harness = await createTestApp({
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_ISSUER: google.issuer,
      MICROSOFT_CLIENT_ID: 'ms-client',
      MICROSOFT_CLIENT_SECRET: 'ms-secret',
      MICROSOFT_ISSUER: microsoft.issuer,
      GITHUB_CLIENT_ID: 'gh-client',
      GITHUB_CLIENT_SECRET: 'gh-secret',
      GITHUB_AUTHORIZE_URL: `${github.url}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${github.url}/login/oauth/access_token`,
      GITHUB_API_URL: github.url,
    });
  });
  afterAll(async () => {
    await harness.close();
    await Promise.all([google.close(), microsoft.close(), github.close()]);
  });

  async function authorize(browser: Browser, provider: string) {
    const secrets = browserSecrets();
    const start = await browser.start(provider, secrets);
    expect(start.statusCode).toBe(200);
    const callbackUrl = await browser.authorizeAtExternal(start.json().authorizationUrl);
    expect(callbackUrl.searchParams.get('state')).toBe(secrets.state);
    return { secrets, code: callbackUrl.searchParams.get('code') ?? '' };
  }

  it('reports the three providers as configured', async () => {
    const { providers } = (await harness.app.inject({ method: 'GET', url: '/api/v1/auth/providers' })).json();
    for (const provider of providers) expect(provider).toMatchObject({ configured: true, note: null });
  });

  it('Google: discovery, authorization request, code exchange and a verified user with picture', async () => {
    google.mode = 'ok';
    const browser = new Browser(harness.app);
    const { code, secrets } = await authorize(browser, 'google');
    const request = google.authorizeRequests.at(-1)!;
    expect(Object.fromEntries(request)).toMatchObject({
      response_type: 'code',
      client_id: 'google-client',
      redirect_uri: `${ORIGIN}/auth/callback`,
      scope: 'openid profile email',
      code_challenge: s256(secrets.codeVerifier),
      code_challenge_method: 'S256',
      nonce: secrets.nonce,
    });
    const response = await browser.callback('google', code, secrets);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      email: `${google.subject}@example.test`,
      authMethod: 'oidc',
      oidcProvider: 'google',
      verified: true,
      oidcClaims: { sub: google.subject, email_verified: true, picture: 'https://img.example.test/p.png' },
    });
    expect(await browser.signedIn()).toBe(true);
  });

  it('Microsoft (multi-tenant): accepts the tenant-specific issuer and keeps tid', async () => {
    const browser = new Browser(harness.app);
    const { code, secrets } = await authorize(browser, 'microsoft');
    const response = await browser.callback('microsoft', code, secrets);
    expect(response.statusCode).toBe(200);
    const { user } = response.json();
    expect(user).toMatchObject({ oidcProvider: 'microsoft', oidcClaims: { sub: microsoft.subject, tid: TENANT } });
    const [identity] = await harness.app.context.database.db.select().from(userIdentities).where(eq(userIdentities.userId, user.id));
    expect(identity?.issuer).toBe(`${microsoft.url}/${TENANT}/v2.0`);
  });

  it('Microsoft: an address the tenant did not verify creates no account; xms_edov counts as verified', async () => {
    const previous = microsoft.subject;
    microsoft.subject = `unverified-${previous}`;
    microsoft.options.claims = { email_verified: false };
    try {
      const browser = new Browser(harness.app);
      const { code, secrets } = await authorize(browser, 'microsoft');
      const response = await browser.callback('microsoft', code, secrets);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(AUTH_COPY.ssoEmailUnverified);
      expect(await browser.signedIn()).toBe(false);
      const rows = await harness.app.context.database.db
        .select()
        .from(users)
        .where(eq(users.email, `${microsoft.subject}@example.test`));
      expect(rows).toHaveLength(0);

      // Entra's optional claim: the address's domain is verified for the tenant.
      microsoft.options.claims = { email_verified: undefined, xms_edov: true };
      const again = new Browser(harness.app);
      const second = await authorize(again, 'microsoft');
      const created = await again.callback('microsoft', second.code, second.secrets);
      expect(created.statusCode).toBe(200);
      expect(created.json().user).toMatchObject({ email: `${microsoft.subject}@example.test`, verified: true });
    } finally {
      microsoft.subject = previous;
      microsoft.options.claims = undefined;
    }
  });

  it('GitHub (OAuth 2 + user API): primary verified e-mail, login and avatar_url', async () => {
    const browser = new Browser(harness.app);
    const { code, secrets } = await authorize(browser, 'github');
    expect(github.authorizeRequests.at(-1)?.get('scope')).toBe('read:user user:email');
    const response = await browser.callback('github', code, secrets);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      email: `${github.subject}@example.test`,
      name: 'Octo Fake',
      verified: true,
      oidcProvider: 'github',
      oidcClaims: { sub: '4242', login: 'octo-fake', avatar_url: 'https://avatars.example.test/u/4242', email_verified: true },
    });
  });

  it('GitHub: a replayed code (refused with HTTP 200 and an error body) opens no session', async () => {
    const browser = new Browser(harness.app);
    const { code, secrets } = await authorize(browser, 'github');
    expect((await browser.callback('github', code, secrets)).statusCode).toBe(200);
    const replayer = new Browser(harness.app);
    await replayer.start('github', secrets);
    const replay = await replayer.callback('github', code, secrets);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/incorrect or expired/);
    expect(await replayer.signedIn()).toBe(false);
  });

  describe('ID token checks: each refusal opens no session', () => {
    const cases: [IdTokenMode, RegExp][] = [
      ['bad-signature', /signature is invalid/],
      ['alg-none', /refused algorithm \(none\)/],
      ['wrong-aud', /issued to another client/],
      ['wrong-iss', /another issuer/],
      ['expired', /expired/],
      ['wrong-nonce', /nonce does not match/],
    ];
    it.each(cases)('%s', async (mode, message) => {
      google.mode = mode;
      try {
        const browser = new Browser(harness.app);
        const before = await harness.app.context.database.db.select().from(sessions);
        const { code, secrets } = await authorize(browser, 'google');
        const response = await browser.callback('google', code, secrets);
        expect(response.statusCode).toBe(400);
        expect(response.json().error.message).toMatch(message);
        expect(response.json().error.message).toMatch(/^Sign-in could not be verified/);
        expect(String(response.headers['set-cookie'] ?? '')).not.toMatch(/cc_session=[^;]/);
        expect(await browser.signedIn()).toBe(false);
        expect(await harness.app.context.database.db.select().from(sessions)).toHaveLength(before.length);
      } finally {
        google.mode = 'ok';
      }
    });

    it('a replayed code is refused by the issuer', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await authorize(browser, 'google');
      expect((await browser.callback('google', code, secrets)).statusCode).toBe(200);
      const attacker = new Browser(harness.app);
      await attacker.start('google', secrets);
      const replay = await attacker.callback('google', code, secrets);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error.message).toMatch(/grant request is invalid/);
      expect(await attacker.signedIn()).toBe(false);
    });

    it('a wrong PKCE verifier is refused before any exchange', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await authorize(browser, 'google');
      const response = await browser.callback('google', code, { ...secrets, codeVerifier: browserSecrets().codeVerifier });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/PKCE/);
      expect(await browser.signedIn()).toBe(false);
    });

    it('the issuer itself refuses a wrong verifier', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await authorize(browser, 'google');
      const other = browserSecrets().codeVerifier;
      // The browser registers a challenge for a verifier the issuer never saw.
      const rogue = new Browser(harness.app);
      await rogue.start('google', { ...secrets, codeVerifier: other });
      const response = await rogue.callback('google', code, { ...secrets, codeVerifier: other });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/grant request is invalid/);
      expect(await rogue.signedIn()).toBe(false);
      expect(await browser.signedIn()).toBe(false);
    });

    it('an existing e-mail account is not taken over by a provider claiming its address', async () => {
      const register = await harness.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { name: 'Owner', email: `victim-${google.subject}@example.test`, password: 'Unusual-Passw0rd-42' },
      });
      expect(register.statusCode).toBe(201);
      const previous = google.subject;
      google.subject = `victim-${previous}`;
      try {
        const browser = new Browser(harness.app);
        const { code, secrets } = await authorize(browser, 'google');
        const response = await browser.callback('google', code, secrets);
        expect(response.statusCode).toBe(409);
        expect(response.json().error.message).toBe(
          'An account with this email already exists. Sign in with your email and password instead.',
        );
        expect(await browser.signedIn()).toBe(false);
      } finally {
        google.subject = previous;
      }
    });
  });
});
