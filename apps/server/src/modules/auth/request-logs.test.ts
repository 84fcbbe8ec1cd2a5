import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { Browser, browserSecrets } from '../oidc/test-support/sso-flow.ts';
import { PASSWORD_RESET_MAIL_KIND } from './password-reset.service.ts';

const PASSWORD = 'Quiet-Harbour-Lantern-31';
const NEW_PASSWORD = 'Other-Quiet-Lantern-32';
const WRONG_PASSWORD = 'Wrong-Lantern-Guess-33';

describe('logs never carry passwords, tokens or codes', () => {
  let harness: TestApp;
  const lines: string[] = [];
  let webDir: string;

  beforeAll(async () => {
    // A minimal web build, so page URLs (reset link, SSO callback) go through the real web route.
    webDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-web-'));
    writeFileSync(path.join(webDir, '__spa-fallback.html'), '<!doctype html><html lang="en"><body>app</body></html>');
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    harness = await createTestApp({ LOG_LEVEL: 'trace', WEB_DIST_DIR: webDir }, { logger: { level: 'trace', stream }, serveWeb: true });
  });
  afterAll(async () => {
    await harness.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('through register, sign-in, reset and single sign-on', async () => {
    const secrets: string[] = [PASSWORD, NEW_PASSWORD, WRONG_PASSWORD];
    const browser = new Browser(harness.app);
    const email = `logs-${Date.now()}@example.com`;
    const registered = await browser.request('POST', '/api/v1/auth/register', { name: 'Quiet', email, password: PASSWORD });
    expect(registered.statusCode).toBe(201);
    secrets.push(browser.jar.get('cc_session') ?? 'missing-session');
    expect((await browser.request('POST', '/api/v1/auth/login', { email, password: WRONG_PASSWORD })).statusCode).toBe(401);
    expect((await browser.request('POST', '/api/v1/auth/login', { email, password: PASSWORD, remember: true })).statusCode).toBe(200);
    secrets.push(browser.jar.get('cc_session') ?? 'missing-session');

    expect((await browser.request('POST', '/api/v1/auth/forgot-password', { email })).statusCode).toBe(200);
    let token = '';
    for (let attempt = 0; attempt < 100 && !token; attempt += 1) {
      const [mail] = await readOutbox(harness.app.context, email, PASSWORD_RESET_MAIL_KIND);
      token = mail?.text.match(/token=([A-Za-z0-9_-]+)/)?.[1] ?? '';
      if (!token) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    secrets.push(token);
    expect((await browser.request('GET', `/reset-password?token=${token}`)).statusCode).toBe(200);
    expect((await browser.request('GET', `/api/v1/no-such-route?token=${token}`)).statusCode).toBe(404);
    expect((await browser.request('POST', '/api/v1/auth/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);

    const sso = browserSecrets();
    const start = await browser.start('demo', sso);
    const callbackUrl = await browser.consentAtDemoIssuer(start.json().authorizationUrl);
    const code = callbackUrl.searchParams.get('code') ?? '';
    expect((await browser.request('GET', `${callbackUrl.pathname}${callbackUrl.search}`)).statusCode).toBe(200);
    const signedIn = await browser.callback('demo', code, sso);
    expect(signedIn.statusCode).toBe(200);
    secrets.push(code, sso.codeVerifier, sso.nonce, sso.state, browser.jar.get('cc_session') ?? 'missing-session');

    expect(lines.length).toBeGreaterThan(10);
    // The development outbox prints the e-mail (with its one-time link) on purpose; nothing else may.
    const checked = lines.filter((line) => !line.includes('development outbox e-mail'));
    expect(checked.some((line) => line.includes('/reset-password?token=%5Bredacted%5D'))).toBe(true);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      const leaks = checked.filter((line) => line.includes(secret));
      expect(leaks, `a log line carries ${secret.slice(0, 6)}…`).toEqual([]);
    }
  });
});
