import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { PASSWORD_RESET_MAIL_KIND } from '../auth/password-reset.service.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';

const PASSWORD = 'Original-Lantern-7';
let counter = 0;

/** A reset link asked for before a change in Settings must not outlive it (whoever holds the old mailbox keeps no way back in). */
describe('outstanding password-reset links', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const post = (url: string, payload: object, cookie?: string) => {
    counter += 1;
    return harness.app.inject({
      method: 'POST',
      url,
      remoteAddress: `10.6.${counter % 250}.1`,
      headers: cookie ? jsonHeaders(cookie) : { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  };

  async function accountWithResetLink() {
    counter += 1;
    const email = `links-${Date.now().toString(36)}-${counter}@example.com`;
    const registered = await post('/api/v1/auth/register', { name: 'Rosa', email, password: PASSWORD });
    expect(registered.statusCode).toBe(201);
    const cookie = String(registered.headers['set-cookie']).split(';')[0] ?? '';
    await post('/api/v1/auth/forgot-password', { email });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const [mail] = await readOutbox(harness.app.context, email, PASSWORD_RESET_MAIL_KIND);
      const token = mail?.text.match(/token=([A-Za-z0-9_-]+)/)?.[1];
      if (token) return { email, cookie, token };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no reset e-mail for ${email}`);
  }

  const expectRetired = async (token: string) => {
    const reset = await post('/api/v1/auth/reset-password', { token, password: 'Takeover-Harbour-9' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.message).toBe(AUTH_COPY.resetInvalid);
  };

  it('stop working once the password is changed in Settings', async () => {
    const { email, cookie, token } = await accountWithResetLink();
    const changed = await post(
      '/api/v1/settings/password',
      { currentPassword: PASSWORD, newPassword: 'Brand-New-Passw0rd', confirmPassword: 'Brand-New-Passw0rd' },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    await expectRetired(token);
    expect((await post('/api/v1/auth/login', { email, password: 'Brand-New-Passw0rd' })).statusCode).toBe(200);
  });

  it('stop working once the e-mail is changed (they went to the old address)', async () => {
    const { email, cookie, token } = await accountWithResetLink();
    const moved = email.replace('@', '.moved@');
    const changed = await harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings/profile',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify({ name: 'Rosa', email: moved, currentPassword: PASSWORD }),
    });
    expect(changed.statusCode).toBe(200);
    await expectRetired(token);
    expect((await post('/api/v1/auth/login', { email: moved, password: PASSWORD })).statusCode).toBe(200);
  });

  it('keep working after a change that moves neither (a new name)', async () => {
    const { cookie, token } = await accountWithResetLink();
    const renamed = await harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings/profile',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify({
        name: 'Rosa Parks',
        email: (await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } })).json().user.email,
      }),
    });
    expect(renamed.statusCode).toBe(200);
    expect((await post('/api/v1/auth/reset-password', { token, password: 'Takeover-Harbour-9' })).statusCode).toBe(200);
  });
});
