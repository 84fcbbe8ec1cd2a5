import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { MESSAGES } from '@conductor/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { passwordResets } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { EMAIL_VERIFICATION_MAIL_KIND } from './email-verification.ts';
import { PASSWORD_RESET_MAIL_KIND } from './password-reset.service.ts';

const OLD_PASSWORD = 'Original-Lantern-7';
const NEW_PASSWORD = 'Brand-New-Harbour-8';
let counter = 0;
const next = () => {
  counter += 1;
  return counter;
};

describe('forgot and reset password', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const post = (url: string, payload: object, cookie?: string) =>
    harness.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: `10.5.${next() % 250}.1`,
      ...(cookie ? { headers: { cookie } } : {}),
    });

  /** A registered account whose address is confirmed (an unconfirmed one: email-verification.test.ts). */
  async function account() {
    const email = `reset-${Date.now().toString(36)}-${next()}@example.com`;
    const response = await post('/api/v1/auth/register', { name: 'Rosa', email, password: OLD_PASSWORD });
    const cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
    const token = (await mailedLink(email, EMAIL_VERIFICATION_MAIL_KIND)).searchParams.get('token') ?? '';
    expect((await post('/api/v1/auth/verify-email', { token }, cookie)).statusCode).toBe(200);
    return { email, cookie };
  }

  /** Mail goes out after the answer: wait for it. */
  async function mailedLink(email: string, kind: string): Promise<URL> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const [mail] = await readOutbox(harness.app.context, email, kind);
      const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
      if (link) return new URL(link);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no ${kind} e-mail for ${email}`);
  }
  const resetLink = (email: string) => mailedLink(email, PASSWORD_RESET_MAIL_KIND);

  it('answers the same whether or not the address has an account, and mails only a real one', async () => {
    const { email } = await account();
    const known = await post('/api/v1/auth/forgot-password', { email });
    const unknownEmail = `nobody-${Date.now()}@example.com`;
    const unknown = await post('/api/v1/auth/forgot-password', { email: unknownEmail });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: AUTH_COPY.forgotPasswordSent });
    expect(unknown.json()).toEqual(known.json());
    const link = await resetLink(email);
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await readOutbox(harness.app.context, unknownEmail)).toHaveLength(0);
    const [mail] = await readOutbox(harness.app.context, email, PASSWORD_RESET_MAIL_KIND);
    expect(mail?.text).toMatch(/^Hi Rosa,\n/);
  });

  it('does not repeat the name to an address that was never confirmed (someone may have signed up with it)', async () => {
    const email = `squatted-${Date.now().toString(36)}-${next()}@example.com`;
    const name = 'Your invoice is overdue: pay at https://evil.example/pay';
    expect((await post('/api/v1/auth/register', { name, email, password: OLD_PASSWORD })).statusCode).toBe(201);
    expect((await post('/api/v1/auth/forgot-password', { email })).statusCode).toBe(200);
    await resetLink(email);
    const [mail] = await readOutbox(harness.app.context, email, PASSWORD_RESET_MAIL_KIND);
    expect(mail?.text).toMatch(/^Hello,\n/);
    expect(mail?.text).not.toContain('evil.example');
  });

  it('stores only a hash of the token, expiring in one hour', async () => {
    const { email } = await account();
    await post('/api/v1/auth/forgot-password', { email });
    const token = (await resetLink(email)).searchParams.get('token') ?? '';
    const [row] = await harness.app.context.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.tokenHash, sha256(token)));
    expect(row).toBeDefined();
    const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(lifetime).toBe(60 * 60 * 1000);
    const all = await harness.app.context.database.db.select().from(passwordResets);
    expect(JSON.stringify(all)).not.toContain(token);
  });

  it('resets once, signs the account out everywhere, and the new password works', async () => {
    const { email, cookie } = await account();
    await post('/api/v1/auth/forgot-password', { email });
    const token = (await resetLink(email)).searchParams.get('token') ?? '';

    const reset = await post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(AUTH_COPY.resetDone);

    const stale = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } });
    expect(stale.statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: OLD_PASSWORD })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).statusCode).toBe(200);

    const again = await post('/api/v1/auth/reset-password', { token, password: 'Another-Harbour-9' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(AUTH_COPY.resetInvalid);
  });

  it('tells whether a link can still be used without using it up, and refuses used, expired, unknown and malformed ones', async () => {
    const { email } = await account();
    await post('/api/v1/auth/forgot-password', { email });
    const token = (await resetLink(email)).searchParams.get('token') ?? '';
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const check = await post('/api/v1/auth/reset-password/check', { token });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ usable: true });
    }
    expect((await post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
    const used = await post('/api/v1/auth/reset-password/check', { token });
    expect(used.statusCode).toBe(400);
    expect(used.json().error).toMatchObject({ message: AUTH_COPY.resetInvalid, fields: { token: AUTH_COPY.resetInvalid } });

    await post('/api/v1/auth/forgot-password', { email });
    let fresh = token;
    // The second mail goes out after the answer: the newest link once it is there.
    for (let attempt = 0; attempt < 100 && fresh === token; attempt += 1) {
      fresh = (await resetLink(email)).searchParams.get('token') ?? '';
      if (fresh === token) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fresh).not.toBe(token);
    await harness.app.context.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, sha256(fresh)));
    expect((await post('/api/v1/auth/reset-password/check', { token: fresh })).statusCode).toBe(400);

    for (const payload of [{ token: 'A'.repeat(43) }, { token: 'short' }, { token: 'not a token at all!' }, { token: 7 }, {}]) {
      const response = await post('/api/v1/auth/reset-password/check', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.message, JSON.stringify(payload)).toBeTruthy();
    }
  });

  it('refuses an expired link', async () => {
    const { email } = await account();
    await post('/api/v1/auth/forgot-password', { email });
    const token = (await resetLink(email)).searchParams.get('token') ?? '';
    await harness.app.context.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, sha256(token)));
    const response = await post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(AUTH_COPY.resetInvalid);
  });

  it('a refused new password does not use up the link', async () => {
    const { email } = await account();
    await post('/api/v1/auth/forgot-password', { email });
    const token = (await resetLink(email)).searchParams.get('token') ?? '';
    const common = await post('/api/v1/auth/reset-password', { token, password: 'Password123' });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields.password).toBe(MESSAGES.register.commonPassword);
    const weak = await post('/api/v1/auth/reset-password', { token, password: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect((await post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it("a stranger's requests do not use up the owner's three reset e-mails an hour", async () => {
    const { email } = await account();
    const from = (remoteAddress: string) =>
      harness.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email }, remoteAddress });
    const mailed = async () => {
      await harness.app.context.mailer.drain();
      return (await readOutbox(harness.app.context, email, PASSWORD_RESET_MAIL_KIND)).length;
    };
    // The stranger's fourth, from another address in the same IPv6 /64, is the same client's.
    for (const address of ['2001:db8:5:1::1', '2001:db8:5:1::2', '2001:db8:5:1::3', '2001:db8:5:1::4']) {
      const response = await from(address);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: AUTH_COPY.forgotPasswordSent });
    }
    expect(await mailed()).toBe(3);
    const owner = await from('10.5.251.1');
    expect(owner.json()).toEqual({ message: AUTH_COPY.forgotPasswordSent });
    expect(await mailed()).toBe(4);
  });

  it('links point at the server itself, not at a forged Host header', async () => {
    const { email } = await account();
    await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email },
      headers: { host: 'evil.example' },
      remoteAddress: '10.9.9.9',
    });
    const link = await resetLink(email);
    expect(link.host).not.toBe('evil.example');
    expect(link.origin).toBe('http://127.0.0.1:8080');
  });
});
