import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

/**
 * The Origin check on state-changing portal calls behind a reverse proxy: nginx's default
 * `proxy_set_header Host $proxy_host` hands us its upstream's name, not the site's.
 */
describe('same-origin check on state-changing calls', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp({ PUBLIC_URL: 'https://conductor.example', TRUST_PROXY: '10.0.0.0/8' });
  });
  afterAll(async () => harness.close());

  const logout = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    harness.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers, payload: {}, remoteAddress });
  const REWRITTEN = { host: '127.0.0.1:8080' };

  it("accepts PUBLIC_URL's origin whatever Host the proxy sends, sign-in included", async () => {
    expect((await logout({ ...REWRITTEN, origin: 'https://conductor.example' })).statusCode).toBe(200);
    expect((await logout({ ...REWRITTEN, referer: 'https://conductor.example/dashboard?tab=keys' })).statusCode).toBe(200);
    const signIn = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { ...REWRITTEN, origin: 'https://conductor.example' },
      payload: { email: 'nobody@example.com', password: 'Not-the-password-1' },
    });
    expect(signIn.statusCode).toBe(401);
  });

  it('refuses other origins, including look-alikes of PUBLIC_URL', async () => {
    for (const origin of [
      'https://evil.example',
      'http://conductor.example',
      'https://conductor.example:8443',
      'https://conductor.example.evil.test',
      'null',
    ]) {
      const response = await logout({ ...REWRITTEN, origin });
      expect(response.statusCode, origin).toBe(403);
      expect(response.json().error.message).toBe('Cross-origin request refused.');
    }
  });

  it("still accepts the request's own host (direct access)", async () => {
    expect((await logout({ host: 'localhost:3000', origin: 'http://localhost:3000' })).statusCode).toBe(200);
  });

  it('takes the host from X-Forwarded-Host only from a TRUST_PROXY peer', async () => {
    const forwarded = { ...REWRITTEN, 'x-forwarded-host': 'portal.example', origin: 'https://portal.example' };
    expect((await logout(forwarded, '10.1.2.3')).statusCode).toBe(200);
    expect((await logout(forwarded, '203.0.113.9')).statusCode).toBe(403);
  });
});

describe('same-origin check without PUBLIC_URL or TRUST_PROXY', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  it('compares with the Host header and ignores X-Forwarded-Host', async () => {
    const logout = (headers: Record<string, string>) =>
      harness.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers, payload: {}, remoteAddress: '127.0.0.1' });
    expect((await logout({ host: 'localhost:8080', origin: 'http://localhost:8080' })).statusCode).toBe(200);
    expect((await logout({ host: 'localhost:8080', origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' })).statusCode).toBe(
      403,
    );
  });
});
