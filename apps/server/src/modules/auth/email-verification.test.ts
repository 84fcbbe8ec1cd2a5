import { MESSAGES } from '@conductor/shared';
import { AUTH_COPY, EMAIL_VERIFICATION_TTL_MS, VERIFY_EMAIL_OTHER_ACCOUNT } from '@conductor/shared/schemas/auth-copy';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { manualClock } from '../../../test/gateway/gateway-helpers.ts';
import { providerKeys, userIdentities, users } from '../../db/schema/index.ts';
import { spendTrial } from '../portal/portal-testing.ts';
import { upsertProviderKey } from '../provider-keys/provider-keys.repository.ts';
import { readOutbox } from '../../lib/mailer.ts';
import { EMAIL_VERIFICATION_MAIL_KIND, emailVerificationToken } from './email-verification.ts';
import { PASSWORD_RESET_MAIL_KIND } from './password-reset.service.ts';

const PASSWORD = 'Original-Lantern-7';
let counter = 0;

describe('e-mail confirmation, and a reset that reclaims an unconfirmed account', () => {
  let harness: TestApp;
  const clock = manualClock(Date.parse('2026-11-28T09:00:00Z'));

  beforeAll(async () => {
    harness = await createTestApp({}, { clock });
  });
  afterAll(async () => harness.close());

  const post = (url: string, payload?: object, cookie?: string) => {
    counter += 1;
    return harness.app.inject({
      method: 'POST',
      url,
      ...(payload ? { payload } : {}),
      remoteAddress: `10.9.${counter % 250}.1`,
      ...(cookie ? { headers: { cookie } } : {}),
    });
  };

  async function register() {
    counter += 1;
    const email = `verify-${counter}-${Date.now().toString(36)}@example.com`;
    const response = await post('/api/v1/auth/register', { name: 'Vera', email, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.verified).toBe(false);
    return { email, userId: response.json().user.id as string, cookie: String(response.headers['set-cookie']).split(';')[0] ?? '' };
  }

  /** The newest link of that kind mailed to the address (mail goes out after the answer). */
  async function mailedToken(email: string, kind: string, count = 1): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const mails = await readOutbox(harness.app.context, email, kind);
      const link = mails.length >= count ? mails.at(-1)?.text.match(/https?:\/\/\S+/)?.[0] : undefined;
      if (link) return new URL(link).searchParams.get('token') ?? '';
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no ${kind} e-mail for ${email}`);
  }
  const me = async (cookie: string) =>
    (await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).json().user;

  it("confirms only from the account's own session: signed out it asks to sign in, another account's session is refused", async () => {
    const owner = await register();
    const token = await mailedToken(owner.email, EMAIL_VERIFICATION_MAIL_KIND);
    const signedOut = await post('/api/v1/auth/verify-email', { token });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().error.message).toBe(AUTH_COPY.verifyEmailSignIn);
    const someoneElse = await register();
    const refused = await post('/api/v1/auth/verify-email', { token }, someoneElse.cookie);
    // Not the expired-link answer: the link is good, the page says to sign out and open it again.
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: VERIFY_EMAIL_OTHER_ACCOUNT, message: AUTH_COPY.verifyEmailOtherAccount });
    // A forged link naming another account is just invalid.
    const [id, expiry, signature = ''] = token.split('.');
    const forged = await post('/api/v1/auth/verify-email', { token: `${id}.${expiry}.${signature.slice(0, -2)}AA` }, someoneElse.cookie);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toBe(AUTH_COPY.verifyEmailInvalid);
    expect((await me(owner.cookie)).verified).toBe(false);
    expect((await me(someoneElse.cookie)).verified).toBe(false);
  });

  it('mails a confirmation link on registration that confirms the address, and may be used again', async () => {
    const { email, cookie } = await register();
    const token = await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND);
    const [mail] = await readOutbox(harness.app.context, email, EMAIL_VERIFICATION_MAIL_KIND);
    expect(mail?.subject).toBe('Confirm your email address for Conductor');
    expect(mail?.text).toContain('http://localhost/verify-email?token=');
    // The name was typed by whoever registered, maybe not the address's owner: not repeated to it.
    expect(mail?.text).toMatch(/^Hello,\n/);
    expect(mail?.text).not.toContain('Vera');

    const confirmed = await post('/api/v1/auth/verify-email', { token }, cookie);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: AUTH_COPY.verifyEmailDone });
    expect((await me(cookie)).verified).toBe(true);
    expect((await post('/api/v1/auth/verify-email', { token }, cookie)).statusCode).toBe(200);
  });

  it('refuses a tampered, expired or malformed link, and one for an address the account no longer has', async () => {
    const { email, userId, cookie } = await register();
    const token = await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND);
    const [id, expiry, signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${id}.${expiry}.${flipped}`, `${id}.${Number(expiry) + 1}.${signature}`, 'not-a-token', '']) {
      const refused = await post('/api/v1/auth/verify-email', { token: bad }, cookie);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toContain(AUTH_COPY.verifyEmailInvalid);
    }

    const { db } = harness.app.context.database;
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    const secret = harness.app.context.secrets.sessionSecret;
    const expired = emailVerificationToken(secret, user!, clock.now() - EMAIL_VERIFICATION_TTL_MS - 1_000);
    expect((await post('/api/v1/auth/verify-email', { token: expired }, cookie)).statusCode).toBe(400);

    await db
      .update(users)
      .set({ email: `moved-${email}` })
      .where(eq(users.id, userId));
    expect((await post('/api/v1/auth/verify-email', { token }, cookie)).statusCode).toBe(400);
    const [after] = await db.select().from(users).where(eq(users.id, userId));
    expect(after?.verified).toBe(false);
  });

  it("an e-mail change in Settings mails the new address its own link; the old address's link stops working", async () => {
    const { email, cookie } = await register();
    const oldToken = await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND);
    const moved = `moved-${email}`;
    const changed = await harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings/profile',
      headers: { cookie },
      payload: { name: 'Vera', email: moved, currentPassword: PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user).toMatchObject({ email: moved, verified: false });
    expect((await post('/api/v1/auth/verify-email', { token: oldToken }, cookie)).statusCode).toBe(400);
    const token = await mailedToken(moved, EMAIL_VERIFICATION_MAIL_KIND);
    expect((await post('/api/v1/auth/verify-email', { token }, cookie)).statusCode).toBe(200);
    expect((await me(cookie)).verified).toBe(true);
  });

  it('sends a new link to a signed-in account, three an hour, and none once confirmed', async () => {
    const { email, cookie } = await register();
    await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND);
    expect((await post('/api/v1/auth/verification-email')).statusCode).toBe(401);
    for (let sent = 2; sent <= 4; sent += 1) {
      const again = await post('/api/v1/auth/verification-email', undefined, cookie);
      expect(again.statusCode).toBe(200);
      expect(again.json().message).toBe(AUTH_COPY.verifyEmailSent(email));
      await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND, sent);
    }
    const limited = await post('/api/v1/auth/verification-email', undefined, cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(MESSAGES.rateLimited);

    const token = await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND, 4);
    expect((await post('/api/v1/auth/verify-email', { token }, cookie)).statusCode).toBe(200);
    const already = await post('/api/v1/auth/verification-email', undefined, cookie);
    expect(already.json().message).toBe(AUTH_COPY.verifyEmailAlready);
  });

  it('the resend and e-mail changes in Settings share the three links an hour', async () => {
    const { email, cookie } = await register();
    await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND);
    for (let change = 1; change <= 3; change += 1) {
      const moved = `moved-${change}-${email}`;
      const changed = await harness.app.inject({
        method: 'PATCH',
        url: '/api/v1/settings/profile',
        headers: { cookie },
        payload: { name: 'Vera', email: moved, currentPassword: PASSWORD },
      });
      expect(changed.statusCode).toBe(200);
      await mailedToken(moved, EMAIL_VERIFICATION_MAIL_KIND);
    }
    const limited = await post('/api/v1/auth/verification-email', undefined, cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(MESSAGES.rateLimited);
  });

  it('a resend used up in the banner leaves an e-mail change in Settings without a link', async () => {
    const { email, cookie } = await register();
    await mailedToken(email, EMAIL_VERIFICATION_MAIL_KIND);
    for (let sent = 1; sent <= 3; sent += 1)
      expect((await post('/api/v1/auth/verification-email', undefined, cookie)).statusCode).toBe(200);
    const moved = `moved-${email}`;
    const changed = await harness.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings/profile',
      headers: { cookie },
      payload: { name: 'Vera', email: moved, currentPassword: PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    await harness.app.context.mailer.drain();
    expect(await readOutbox(harness.app.context, moved, EMAIL_VERIFICATION_MAIL_KIND)).toHaveLength(0);
  });

  it('a reset of an unconfirmed account removes what its creator set up, and leaves confirming to the link', async () => {
    // Someone registers an address that is not theirs and sets the account up.
    const squatter = await register();
    const created = await post('/api/v1/api-keys', { name: 'Default', environment: 'live', permissions: ['api'] }, squatter.cookie);
    expect(created.statusCode).toBe(201);
    const { key } = created.json();
    const models = () => harness.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer ${key}` } });
    expect((await models()).statusCode).toBe(200);
    const { db } = harness.app.context.database;
    await upsertProviderKey(
      db,
      harness.app.context.secrets.encryptionKey,
      squatter.userId,
      'openai',
      'sk-squatterOwnedKey0001',
      clock.now(),
    );
    await db
      .update(users)
      .set({ routingPolicy: { strategy: 'cost' } })
      .where(eq(users.id, squatter.userId));
    // And moves it to a paid plan: billed at once (an unconfirmed address starts no free trial, so
    // this is an account whose trial is behind it, or one on a paid plan from before trials).
    await spendTrial(db, squatter.userId, clock.now());
    const upgraded = await post('/api/v1/billing/change-plan', { plan: 'pro', period: 'monthly' }, squatter.cookie);
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    const identity = { issuer: 'https://issuer.example', subject: `sub-${counter}`, userId: squatter.userId, provider: 'google' };
    await db.insert(userIdentities).values(identity);

    // The address's owner resets the password from their mailbox.
    await post('/api/v1/auth/forgot-password', { email: squatter.email });
    const reset = await post('/api/v1/auth/reset-password', {
      token: await mailedToken(squatter.email, PASSWORD_RESET_MAIL_KIND),
      password: 'Owner-Takes-Back-9',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(AUTH_COPY.resetDoneReclaimedPlan);

    expect((await models()).statusCode).toBe(401);
    expect(await db.select().from(providerKeys).where(eq(providerKeys.userId, squatter.userId))).toEqual([]);
    const [row] = await db.select().from(users).where(eq(users.id, squatter.userId));
    expect(row?.routingPolicy).toBeNull();
    // Not confirmed by the reset (an e-mail change may have raced it); the owner gets a link instead.
    expect(row?.verified).toBe(false);
    await mailedToken(squatter.email, EMAIL_VERIFICATION_MAIL_KIND, 2);
    // Identities are kept: one is created only for an address its provider confirmed.
    expect(await db.select().from(userIdentities).where(eq(userIdentities.userId, squatter.userId))).toHaveLength(1);
    // The squatter's session ended with the reset.
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie: squatter.cookie } })).statusCode).toBe(
      401,
    );

    const signedIn = await post('/api/v1/auth/login', { email: squatter.email, password: 'Owner-Takes-Back-9' });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    const keys = (await harness.app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: { cookie } })).json().keys;
    expect(keys.every((entry: { status: string }) => entry.status !== 'active')).toBe(true);
    // The paid plan the squatter chose runs out at the end of its period instead of renewing.
    const billing = (await harness.app.inject({ method: 'GET', url: '/api/v1/billing', headers: { cookie } })).json();
    expect(billing).toMatchObject({ plan: 'pro', cancelAtPeriodEnd: true });
  });

  it('a reset racing an e-mail change never confirms the new address', async () => {
    const account = await register();
    await post('/api/v1/auth/forgot-password', { email: account.email });
    const token = await mailedToken(account.email, PASSWORD_RESET_MAIL_KIND);
    const victim = `victim-${counter}@victim.example`;
    await Promise.all([
      harness.app.inject({
        method: 'PATCH',
        url: '/api/v1/settings/profile',
        headers: { cookie: account.cookie },
        payload: { name: 'Vera', email: victim, currentPassword: PASSWORD },
      }),
      post('/api/v1/auth/reset-password', { token, password: 'Racing-Reset-Pass-9' }),
    ]);
    const [row] = await harness.app.context.database.db.select().from(users).where(eq(users.id, account.userId));
    expect(row?.verified).toBe(false);
  });

  it('a reset of a confirmed account keeps its keys', async () => {
    const owner = await register();
    expect(
      (await post('/api/v1/auth/verify-email', { token: await mailedToken(owner.email, EMAIL_VERIFICATION_MAIL_KIND) }, owner.cookie))
        .statusCode,
    ).toBe(200);
    const { key } = (await post('/api/v1/api-keys', { name: 'Mine', environment: 'live', permissions: ['api'] }, owner.cookie)).json();
    await post('/api/v1/auth/forgot-password', { email: owner.email });
    const reset = await post('/api/v1/auth/reset-password', {
      token: await mailedToken(owner.email, PASSWORD_RESET_MAIL_KIND),
      password: 'Owner-Keeps-All-9',
    });
    expect(reset.json().message).toBe(AUTH_COPY.resetDone);
    expect((await harness.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(
      200,
    );
  });
});
