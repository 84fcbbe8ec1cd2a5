import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { oidcStore, sessions, userIdentities, users } from '../../db/schema/index.ts';
import { DEMO_CLIENT_ID, demoClientSecret } from './demo-issuer.ts';
import { loadSigningKeys } from './signing-keys.ts';
import { Browser, browserSecrets, ORIGIN, s256 } from './test-support/sso-flow.ts';

describe('the embedded Demo OIDC issuer, end to end', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  async function signInWithDemo(browser: Browser) {
    const secrets = browserSecrets();
    const start = await browser.start('demo', secrets);
    expect(start.statusCode).toBe(200);
    const callbackUrl = await browser.consentAtDemoIssuer(start.json().authorizationUrl);
    return { secrets, callbackUrl, code: callbackUrl.searchParams.get('code') ?? '' };
  }

  it('sends the spec authorisation request and creates an OIDC user from the real code exchange', async () => {
    const browser = new Browser(harness.app);
    const secrets = browserSecrets();
    const start = await browser.start('demo', secrets);
    const authorization = new URL(start.json().authorizationUrl);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${ORIGIN}/oidc/auth`);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: DEMO_CLIENT_ID,
      redirect_uri: `${ORIGIN}/auth/callback`,
      scope: 'openid profile email',
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: s256(secrets.codeVerifier),
      code_challenge_method: 'S256',
    });
    const callbackUrl = await browser.consentAtDemoIssuer(start.json().authorizationUrl);
    expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(`${ORIGIN}/auth/callback`);
    expect(callbackUrl.searchParams.get('state')).toBe(secrets.state);

    const callback = await browser.callback('demo', callbackUrl.searchParams.get('code') ?? '', secrets);
    expect(callback.statusCode).toBe(200);
    const { user, isNewUser } = callback.json();
    expect(isNewUser).toBe(true);
    expect(user).toMatchObject({
      authMethod: 'oidc',
      oidcProvider: 'demo',
      verified: true,
      plan: 'free',
      onboardingCompleted: false,
      name: 'Demo OIDC User',
      usage: { tokensLimit: 10_000, requestsLimit: 10 },
    });
    expect(user.oidcClaims).toMatchObject({ sub: expect.stringMatching(/^demo-/), email_verified: true });
    expect(await browser.signedIn()).toBe(true);

    const [identity] = await harness.app.context.database.db.select().from(userIdentities).where(eq(userIdentities.userId, user.id));
    expect(identity).toMatchObject({ issuer: `${ORIGIN}/oidc`, subject: user.oidcClaims.sub, provider: 'demo' });
  });

  it('keeps an account unverified at the next sign-in when its e-mail was changed since (the provider vouched for the old one)', async () => {
    const browser = new Browser(harness.app);
    const first = await signInWithDemo(browser);
    const created = (await browser.callback('demo', first.code, first.secrets)).json();
    expect(created.user.verified).toBe(true);
    const db = harness.app.context.database.db;
    await db
      .update(users)
      .set({ email: `changed-${created.user.id}@example.org`, verified: false })
      .where(eq(users.id, created.user.id));
    const again = await signInWithDemo(browser);
    const returning = (await browser.callback('demo', again.code, again.secrets)).json();
    expect(returning.user.id).toBe(created.user.id);
    expect(returning.user.verified).toBe(false);
  });

  it('signs the same browser back into the same account, and gives another browser its own', async () => {
    const first = new Browser(harness.app);
    const one = await signInWithDemo(first);
    const created = (await first.callback('demo', one.code, one.secrets)).json();
    const again = await signInWithDemo(first);
    const returning = (await first.callback('demo', again.code, again.secrets)).json();
    expect(returning.isNewUser).toBe(false);
    expect(returning.user.id).toBe(created.user.id);

    const second = new Browser(harness.app);
    const other = await signInWithDemo(second);
    const separate = (await second.callback('demo', other.code, other.secrets)).json();
    expect(separate.user.id).not.toBe(created.user.id);
  });

  describe('signing in again to confirm a change (reauthenticate)', () => {
    it('signs the same account in again, with a fresh session', async () => {
      const browser = new Browser(harness.app);
      const first = await signInWithDemo(browser);
      const account = (await browser.callback('demo', first.code, first.secrets)).json().user.id as string;
      const before = browser.jar.get('cc_session');
      const secrets = browserSecrets();
      const start = await browser.start('demo', secrets, { reauthenticate: true });
      expect(start.statusCode, start.body).toBe(200);
      const code = (await browser.consentAtDemoIssuer(start.json().authorizationUrl)).searchParams.get('code') ?? '';
      const again = await browser.callback('demo', code, secrets);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().user.id).toBe(account);
      expect(browser.jar.get('cc_session')).not.toBe(before);
    });

    it('refuses another identity: nobody is signed in or created, and the current session stays', async () => {
      const owner = new Browser(harness.app);
      const first = await signInWithDemo(owner);
      const account = (await owner.callback('demo', first.code, first.secrets)).json().user.id as string;
      const usersBefore = (await harness.app.context.database.db.select().from(users)).length;
      const secrets = browserSecrets();
      const start = await owner.start('demo', secrets, { reauthenticate: true });
      // At the provider, someone else's identity answers (another browser's demo identity).
      const stranger = new Browser(harness.app);
      const code = (await stranger.consentAtDemoIssuer(start.json().authorizationUrl)).searchParams.get('code') ?? '';
      const refused = await owner.callback('demo', code, secrets);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toBe(AUTH_COPY.ssoReauthOtherAccount);
      expect((await harness.app.context.database.db.select().from(users)).length).toBe(usersBefore);
      const session = await owner.request('GET', '/api/v1/auth/session');
      expect(session.json()).toMatchObject({ isAuthenticated: true, user: { id: account } });
    });

    it('is refused when signed out', async () => {
      const browser = new Browser(harness.app);
      const refused = await browser.start('demo', browserSecrets(), { reauthenticate: true });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.message).toBe(AUTH_COPY.ssoReauthSignedOut);
    });
  });

  it('publishes its discovery document on our issuer, S256 only', async () => {
    const response = await harness.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: '127.0.0.1:8080' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      issuer: `${ORIGIN}/oidc`,
      authorization_endpoint: `${ORIGIN}/oidc/auth`,
      token_endpoint: `${ORIGIN}/oidc/token`,
      jwks_uri: `${ORIGIN}/oidc/jwks`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
  });

  it('keeps its state in the database (oidc_store), not in process memory', async () => {
    const browser = new Browser(harness.app);
    const start = await browser.start('demo', browserSecrets());
    await browser.request('GET', start.json().authorizationUrl);
    const rows = await harness.app.context.database.db.select().from(oidcStore).where(eq(oidcStore.model, 'Interaction'));
    expect(rows.length).toBeGreaterThan(0);
  });

  it('cancelling at the consent page returns the provider error to the callback', async () => {
    const browser = new Browser(harness.app);
    const start = await browser.start('demo', browserSecrets());
    const callbackUrl = await browser.consentAtDemoIssuer(start.json().authorizationUrl, 'abort');
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
    expect(callbackUrl.searchParams.get('error_description')).toMatch(/cancelled/);
    expect(callbackUrl.searchParams.get('code')).toBeNull();
  });

  it('requires PKCE: an authorization request without a code challenge is refused', async () => {
    const browser = new Browser(harness.app);
    const url = new URL(`${ORIGIN}/oidc/auth`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: DEMO_CLIENT_ID,
      redirect_uri: `${ORIGIN}/auth/callback`,
      scope: 'openid',
      state: 'x'.repeat(40),
    }).toString();
    const response = await browser.request('GET', url.toString());
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/i);
  });

  it('refuses a code exchanged with the wrong PKCE verifier at the token endpoint', async () => {
    const browser = new Browser(harness.app);
    const { code } = await signInWithDemo(browser);
    const secret = demoClientSecret(harness.app.context.secrets.sessionSecret);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: {
        host: '127.0.0.1:8080',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${DEMO_CLIENT_ID}:${secret}`).toString('base64')}`,
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${ORIGIN}/auth/callback`,
        code_verifier: browserSecrets().codeVerifier,
      }).toString(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_grant');
  });

  describe('refusals open no session', () => {
    async function expectRefused(browser: Browser, response: Awaited<ReturnType<Browser['callback']>>, message: RegExp) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().error.message).toMatch(message);
      expect(String(response.headers['set-cookie'] ?? '')).not.toMatch(/cc_session=[^;]/);
      expect(await browser.signedIn()).toBe(false);
    }

    it('wrong state', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await signInWithDemo(browser);
      await expectRefused(
        browser,
        await browser.callback('demo', code, { ...secrets, state: browserSecrets().state }),
        /^Invalid state parameter$/,
      );
    });

    it('PKCE verifier mismatch', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await signInWithDemo(browser);
      await expectRefused(
        browser,
        await browser.callback('demo', code, { ...secrets, codeVerifier: browserSecrets().codeVerifier }),
        /PKCE/,
      );
    });

    it('a callback from a browser that did not start the sign-in', async () => {
      const starter = new Browser(harness.app);
      const { code, secrets } = await signInWithDemo(starter);
      const stranger = new Browser(harness.app);
      await expectRefused(stranger, await stranger.callback('demo', code, secrets), /expired or was started in another browser/);
    });

    it('a replayed code', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await signInWithDemo(browser);
      expect((await browser.callback('demo', code, secrets)).statusCode).toBe(200);
      await browser.request('POST', '/api/v1/auth/logout', {});
      expect(await browser.signedIn()).toBe(false);
      // Same state, nonce and verifier, so only the issuer's single-use rule can refuse it.
      await browser.start('demo', secrets);
      await expectRefused(browser, await browser.callback('demo', code, secrets), /invalid_grant|grant request is invalid/);
    });

    it('the transaction is used up by a failed attempt', async () => {
      const browser = new Browser(harness.app);
      const { code, secrets } = await signInWithDemo(browser);
      await browser.callback('demo', code, { ...secrets, state: browserSecrets().state });
      await expectRefused(browser, await browser.callback('demo', code, secrets), /expired or was started in another browser/);
    });
  });

  it('refuses a redirect URI that is not our own callback', async () => {
    const browser = new Browser(harness.app);
    const response = await browser.start('demo', browserSecrets(), { redirectUri: 'https://evil.example/auth/callback' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/redirect URI/);
  });

  it('lists the providers with the demo configured and the others disabled with a note', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/providers' });
    expect(response.statusCode).toBe(200);
    const { providers } = response.json();
    expect(providers.map((provider: { id: string }) => provider.id)).toEqual(['google', 'microsoft', 'github', 'demo']);
    expect(providers.find((provider: { id: string }) => provider.id === 'demo')).toMatchObject({
      configured: true,
      issuer: `${ORIGIN}/oidc`,
    });
    expect(providers.find((provider: { id: string }) => provider.id === 'github')).toMatchObject({
      configured: false,
      note: 'GitHub sign-in is not configured on this server.',
    });
    const start = await new Browser(harness.app).start('google', browserSecrets());
    expect(start.statusCode).toBe(400);
    expect(start.json().error.message).toBe('Google sign-in is not configured on this server.');
  });

  it('keeps its signing keys in the database and publishes their public halves', async () => {
    const { database, secrets } = harness.app.context;
    const stored = await loadSigningKeys({
      db: database.db,
      encryptionKey: secrets.encryptionKey,
      dataDir: harness.dataDir,
      log: harness.app.log,
    });
    const jwks = await harness.app.inject({ method: 'GET', url: '/oidc/jwks', headers: { host: '127.0.0.1:8080' } });
    const published = jwks.json().keys as { kid: string; d?: string }[];
    expect(published.map((key) => key.kid)).toEqual(stored.keys.map((key) => key.kid));
    expect(published.every((key) => key.d === undefined)).toBe(true);
  });

  it('the user and identity are stored once per issuer and subject', async () => {
    const browser = new Browser(harness.app);
    const { code, secrets } = await signInWithDemo(browser);
    const { user } = (await browser.callback('demo', code, secrets)).json();
    const db = harness.app.context.database.db;
    const identities = await db.select().from(userIdentities).where(eq(userIdentities.subject, user.oidcClaims.sub));
    expect(identities).toHaveLength(1);
    const rows = await db.select().from(users).where(eq(users.id, user.id));
    expect(rows[0]?.passwordHash).toBeNull();
    const open = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id)));
    expect(open).toHaveLength(1);
  });
});
