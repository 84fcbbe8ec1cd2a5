import {
  EMAIL_CHANGE_NEEDS_PASSWORD,
  REAUTHENTICATION_REQUIRED,
  RECENT_SIGN_IN_MINUTES,
  SIGN_IN_AGAIN_TO_CHANGE_EMAIL,
  WRONG_CURRENT_PASSWORD,
} from '@conductor/shared/schemas/settings';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { hashPassword } from '../../lib/password.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';
import { EMAIL_CHANGED_MAIL_KIND, emailChangedNotice, maskEmail } from './email-change-notice.ts';
import { updateProfile } from './settings.service.ts';

const PASSWORD = 'Current-Passw0rd';
const unique = (local: string) => `${local}-${Math.random().toString(36).slice(2, 8)}@example.org`;

describe('changing the e-mail in the profile', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const db = () => harness.app.context.database.db;
  const save = (cookie: string, payload: unknown) =>
    harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings/profile',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify(payload),
    });
  const row = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0];
  const withPassword = async () => createUserWithSession(harness.app, { passwordHash: await hashPassword(PASSWORD) });
  const withoutPassword = () => createUserWithSession(harness.app, { authMethod: 'oidc', passwordHash: null });

  it('renames without the password', async () => {
    const { cookie, user } = await withPassword();
    const response = await save(cookie, { name: 'Nora Renamed', email: user.email });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ name: 'Nora Renamed', email: user.email, verified: true });
  });

  it('treats a change of letter case only as the same address', async () => {
    const { cookie, user } = await withPassword();
    const response = await save(cookie, { name: user.name, email: user.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.verified).toBe(true);
  });

  it('asks for the current password, and refuses a wrong one, before anything changes', async () => {
    const { cookie, user } = await withPassword();
    const other = await createUserWithSession(harness.app, { email: unique('taken') });
    for (const [payload, message] of [
      [{ name: user.name, email: unique('nora') }, EMAIL_CHANGE_NEEDS_PASSWORD],
      [{ name: user.name, email: unique('nora'), currentPassword: '' }, EMAIL_CHANGE_NEEDS_PASSWORD],
      [{ name: user.name, email: unique('nora'), currentPassword: 'Wrong-Passw0rd' }, WRONG_CURRENT_PASSWORD],
      // The password comes first: a session alone cannot find out which addresses have an account.
      [{ name: user.name, email: other.user.email }, EMAIL_CHANGE_NEEDS_PASSWORD],
    ] as const) {
      const response = await save(cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.message).toBe(message);
      expect(response.json().error.fields).toEqual({ currentPassword: message });
    }
    expect(await row(user.id)).toMatchObject({ email: user.email, verified: true });
    expect(await readOutbox(harness.app.context, user.email, EMAIL_CHANGED_MAIL_KIND)).toHaveLength(0);
  });

  it('refuses a current password longer than any password can be', async () => {
    const { cookie, user } = await withPassword();
    const response = await save(cookie, { name: user.name, email: unique('nora'), currentPassword: 'x'.repeat(129) });
    expect(response.statusCode).toBe(400);
  });

  it('saves a new e-mail with the right password, as unverified', async () => {
    const { cookie, user } = await withPassword();
    const email = unique('nora');
    const response = await save(cookie, { name: user.name, email, currentPassword: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email, verified: false });
    expect(await row(user.id)).toMatchObject({ email, verified: false });
  });

  it('lets an account without a password (single sign-on) change its e-mail, as unverified, just after signing in', async () => {
    const { cookie, user } = await withoutPassword();
    const email = unique('sso');
    const response = await save(cookie, { name: user.name, email });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email, verified: false });
  });

  it('asks a single sign-on account to sign in again when its sign-in is older than the limit; a name still saves', async () => {
    const { cookie, user, token } = await withoutPassword();
    const signedInAt = new Date(Date.now() - (RECENT_SIGN_IN_MINUTES * 60_000 + 5_000));
    await db()
      .update(sessions)
      .set({ createdAt: signedInAt })
      .where(eq(sessions.tokenHash, sha256(token)));
    const refused = await save(cookie, { name: user.name, email: unique('moved') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: REAUTHENTICATION_REQUIRED,
      message: SIGN_IN_AGAIN_TO_CHANGE_EMAIL,
      fields: { email: SIGN_IN_AGAIN_TO_CHANGE_EMAIL },
    });
    expect((await row(user.id))?.email).toBe(user.email);
    expect((await save(cookie, { name: 'Still Me', email: user.email })).statusCode).toBe(200);
  });

  describe('the notice to the old address', () => {
    const change = async (user: Awaited<ReturnType<typeof withPassword>>['user'], input: Parameters<typeof updateProfile>[2]) =>
      updateProfile(
        db(),
        { user, session: { createdAt: new Date('2025-03-04T05:06:00Z') } },
        input,
        Date.parse('2025-03-04T05:06:07Z'),
        harness.app.context.mailer,
      );

    it('goes out when an account with a password changes its e-mail', async () => {
      const { user } = await withPassword();
      const email = unique('nora');
      expect(await change(user, { name: user.name, email, currentPassword: PASSWORD })).toMatchObject({ email, verified: false });
      const [mail, ...more] = await readOutbox(harness.app.context, user.email, EMAIL_CHANGED_MAIL_KIND);
      expect(more).toHaveLength(0);
      expect(mail?.subject).toBe('Your Conductor email address was changed');
      expect(mail?.text).toContain(`changed to ${maskEmail(email)} on 2025-03-04 05:06 UTC`);
      expect(mail?.text).toContain('support@conductor.dev');
      expect(mail?.text).not.toContain(email);
      expect(await readOutbox(harness.app.context, email)).toHaveLength(0);
    });

    it('goes out when an account without a password changes its e-mail', async () => {
      const { user } = await withoutPassword();
      const email = unique('sso');
      expect(await change(user, { name: user.name, email })).toMatchObject({ email, verified: false });
      expect(await readOutbox(harness.app.context, user.email, EMAIL_CHANGED_MAIL_KIND)).toHaveLength(1);
    });

    it('does not go out for a new name, a new letter case, or a refused change', async () => {
      const { user } = await withPassword();
      await change(user, { name: 'Nora Renamed', email: user.email.toUpperCase() });
      await expect(change(user, { name: user.name, email: unique('nora'), currentPassword: 'Wrong-Passw0rd' })).rejects.toThrow(
        WRONG_CURRENT_PASSWORD,
      );
      expect(await readOutbox(harness.app.context, user.email, EMAIL_CHANGED_MAIL_KIND)).toHaveLength(0);
    });
  });
});

describe('the e-mail change notice', () => {
  it('masks the new address down to its first letter and domain', () => {
    expect(maskEmail('nora@example.org')).toBe('n***@example.org');
    expect(maskEmail('n@example.org')).toBe('n***@example.org');
  });

  it('is addressed to the old address, greets the owner by the name they know', () => {
    const notice = emailChangedNotice({ name: 'Nora', verified: true, oldEmail: 'old@example.org', newEmail: 'new@example.net', now: 0 });
    expect(notice).toMatchObject({ to: 'old@example.org', kind: EMAIL_CHANGED_MAIL_KIND });
    expect(notice.text).toMatch(/^Hi Nora,\n/);
    expect(notice.text).toContain('changed to n***@example.net on 1970-01-01 00:00 UTC');
  });

  it('does not repeat the name to an address that was never confirmed (a stranger may have typed both)', () => {
    const name = 'Your invoice is overdue: pay at https://evil.example/pay';
    const notice = emailChangedNotice({ name, verified: false, oldEmail: 'old@example.org', newEmail: 'new@example.net', now: 0 });
    expect(notice.text).toMatch(/^Hello,\n/);
    expect(notice.text).not.toContain('evil.example');
  });
});
