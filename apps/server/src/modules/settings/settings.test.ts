import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELETE_NEEDS_PASSWORD,
  REAUTHENTICATION_REQUIRED,
  RECENT_SIGN_IN_MINUTES,
  SIGN_IN_AGAIN_TO_DELETE,
  WRONG_CURRENT_PASSWORD,
} from '@conductor/shared/schemas/settings';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { apiKeys, providerKeys, sessions, users } from '../../db/schema/index.ts';
import { sha256 } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import { findApiKeyByHash } from '../api-keys/api-key.ts';
import { createSession, resolveSession, SESSION_COOKIE } from '../auth/session.service.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';
import { loadDecryptedProviderKeys } from '../provider-keys/provider-keys.repository.ts';

const OPENAI_KEY = 'sk-abcdefghijklmnopqrstuvwxyz0123456789';

describe('settings', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const db = () => harness.app.context.database.db;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    harness.app.inject({
      method,
      url,
      headers: payload === undefined ? { cookie } : jsonHeaders(cookie),
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const extraSession = async (userId: string) => {
    const session = await createSession(db(), userId, { remember: false, now: Date.now(), userAgent: 'Other browser' });
    return { cookie: `${SESSION_COOKIE}=${session.token}`, token: session.token };
  };

  describe('profile', () => {
    it('saves name and e-mail and returns the updated user', async () => {
      const { cookie } = await createUserWithSession(harness.app);
      const response = await call('PATCH', '/api/v1/settings/profile', cookie, { name: '  Ada Lovelace ', email: 'ada@example.com' });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
      const session = (await call('GET', '/api/v1/auth/session', cookie)).json();
      expect(session.user.name).toBe('Ada Lovelace');
    });

    it('refuses an e-mail that another account uses, whatever its case', async () => {
      const taken = await createUserWithSession(harness.app, { email: 'taken@example.com' });
      const { cookie } = await createUserWithSession(harness.app);
      const response = await call('PATCH', '/api/v1/settings/profile', cookie, { name: 'Someone', email: 'TAKEN@example.com' });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.fields.email).toBe('An account with this email already exists.');
      const [row] = await db().select().from(users).where(eq(users.id, taken.user.id));
      expect(row?.name).toBe('Test User');
    });

    it('refuses bad input with the form messages', async () => {
      const { cookie } = await createUserWithSession(harness.app);
      for (const [payload, message] of [
        [{ name: '', email: 'a@example.com' }, 'Full name is required'],
        [{ name: 'A', email: 'a@example.com' }, 'Name must be at least 2 characters'],
        [{ name: 'Ada', email: 'not-an-email' }, 'Invalid email address'],
        [{ name: 'Ada', email: '' }, 'Email is required'],
        [{ name: 'Ada', email: 'a@example.com', plan: 'enterprise' }, undefined],
        [
          { name: 'Ada\u0000', email: 'a@example.com' },
          'Name must be readable text: no control, direction-changing or only invisible characters',
        ],
      ] as const) {
        const response = await call('PATCH', '/api/v1/settings/profile', cookie, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        if (message) expect(response.json().error.message).toContain(message);
      }
    });
  });

  describe('password', () => {
    it('checks the current password, applies the register rules and signs out other sessions', async () => {
      const { cookie, user } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
      const other = await extraSession(user.id);
      const attempt = (payload: unknown) => call('POST', '/api/v1/settings/password', cookie, payload);

      const wrong = await attempt({
        currentPassword: 'nope-nope',
        newPassword: 'Brand-New-Passw0rd',
        confirmPassword: 'Brand-New-Passw0rd',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.fields).toEqual({ currentPassword: 'Current password is incorrect' });
      for (const [payload, message] of [
        [
          { currentPassword: 'Current-Passw0rd', newPassword: 'short1A', confirmPassword: 'short1A' },
          'Password must be at least 8 characters',
        ],
        [
          { currentPassword: 'Current-Passw0rd', newPassword: 'alllowercase1', confirmPassword: 'alllowercase1' },
          'Password must contain uppercase, lowercase, and number',
        ],
        [
          { currentPassword: 'Current-Passw0rd', newPassword: 'Brand-New-Passw0rd', confirmPassword: 'Different-Passw0rd' },
          'Passwords do not match',
        ],
        [{ currentPassword: 'Current-Passw0rd', newPassword: 'Password1', confirmPassword: 'Password1' }, 'This password is too common'],
        [
          { currentPassword: 'Current-Passw0rd', newPassword: 'Current-Passw0rd', confirmPassword: 'Current-Passw0rd' },
          'different from your current one',
        ],
        [{ newPassword: 'Brand-New-Passw0rd', confirmPassword: 'Brand-New-Passw0rd' }, 'Current password is required'],
      ] as const) {
        const response = await attempt(payload);
        expect(response.statusCode, message).toBe(400);
        expect(response.json().error.message).toContain(message);
      }

      const ok = await attempt({
        currentPassword: 'Current-Passw0rd',
        newPassword: 'Brand-New-Passw0rd',
        confirmPassword: 'Brand-New-Passw0rd',
      });
      expect(ok.statusCode).toBe(200);
      const [row] = await db().select().from(users).where(eq(users.id, user.id));
      expect(await verifyPassword(row!.passwordHash!, 'Brand-New-Passw0rd')).toBe(true);
      expect(await resolveSession(db(), other.token, Date.now())).toBeNull();
      expect((await call('GET', '/api/v1/settings/sessions', cookie)).statusCode).toBe(200);
    });

    it('explains that single sign-on accounts have no password', async () => {
      const { cookie } = await createUserWithSession(harness.app, { authMethod: 'oidc', passwordHash: null });
      const response = await call('POST', '/api/v1/settings/password', cookie, {
        currentPassword: 'whatever',
        newPassword: 'Brand-New-Passw0rd',
        confirmPassword: 'Brand-New-Passw0rd',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/single sign-on/);
      expect((await call('GET', '/api/v1/auth/session', cookie)).json().user).toMatchObject({ authMethod: 'oidc', hasPassword: false });
    });

    it('lets a single sign-on account that set a password through a reset change it, and says it has one', async () => {
      const { cookie } = await createUserWithSession(harness.app, {
        authMethod: 'oidc',
        passwordHash: await hashPassword('Reset-Passw0rd'),
      });
      expect((await call('GET', '/api/v1/auth/session', cookie)).json().user).toMatchObject({ authMethod: 'oidc', hasPassword: true });
      const response = await call('POST', '/api/v1/settings/password', cookie, {
        currentPassword: 'Reset-Passw0rd',
        newPassword: 'Brand-New-Passw0rd',
        confirmPassword: 'Brand-New-Passw0rd',
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it('lists active sessions and revokes another one, never the current or someone else’s', async () => {
      const alice = await createUserWithSession(harness.app);
      const bob = await createUserWithSession(harness.app);
      const other = await extraSession(alice.user.id);
      const { sessions } = (await call('GET', '/api/v1/settings/sessions', alice.cookie)).json();
      expect(sessions).toHaveLength(2);
      const current = sessions.find((session: { current: boolean }) => session.current);
      const second = sessions.find((session: { current: boolean }) => !session.current);
      expect(second.userAgent).toBe('Other browser');
      expect(JSON.stringify(sessions)).not.toContain(other.token);
      expect(JSON.stringify(sessions)).not.toContain(sha256(other.token));

      expect((await call('DELETE', `/api/v1/settings/sessions/${second.id}`, bob.cookie)).statusCode).toBe(404);
      expect(await resolveSession(db(), other.token, Date.now())).not.toBeNull();
      expect((await call('DELETE', `/api/v1/settings/sessions/${current.id}`, alice.cookie)).statusCode).toBe(400);
      expect((await call('DELETE', `/api/v1/settings/sessions/${'x'.repeat(65)}`, alice.cookie)).statusCode).toBe(400);
      expect((await call('DELETE', '/api/v1/settings/sessions/%00', alice.cookie)).statusCode).toBe(400);
      const revoked = await call('DELETE', `/api/v1/settings/sessions/${second.id}`, alice.cookie);
      expect(revoked.statusCode).toBe(200);
      expect(await resolveSession(db(), other.token, Date.now())).toBeNull();
      expect((await call('GET', '/api/v1/settings/sessions', bob.cookie)).json().sessions).toHaveLength(1);
    });
  });

  describe('provider keys', () => {
    it('stores a key encrypted at rest, shows it masked, replaces and removes it', async () => {
      const { cookie, user } = await createUserWithSession(harness.app);
      const saved = await call('POST', '/api/v1/settings/provider-keys/openai', cookie, { key: OPENAI_KEY });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().user.apiKeys).toEqual([{ provider: 'openai', masked: 'sk-abcde...6789', active: true, endpoint: null }]);
      expect(saved.body).not.toContain(OPENAI_KEY);

      const [raw] = await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id));
      expect(raw?.ciphertext.toString('utf8')).not.toContain('abcdefghijklmnop');
      expect(raw?.ciphertext.toString('hex')).not.toContain(Buffer.from(OPENAI_KEY).toString('hex'));
      expect(raw?.iv).toHaveLength(12);
      expect(raw?.authTag).toHaveLength(16);
      expect(await loadDecryptedProviderKeys(db(), harness.app.context.secrets.encryptionKey, user.id)).toEqual({ openai: OPENAI_KEY });

      const replaced = await call('POST', '/api/v1/settings/provider-keys/openai', cookie, { key: 'sk-ZZZZ1111222233334444' });
      expect(replaced.json().user.apiKeys).toEqual([{ provider: 'openai', masked: 'sk-ZZZZ1...4444', active: true, endpoint: null }]);
      const removed = await call('DELETE', '/api/v1/settings/provider-keys/openai', cookie);
      expect(removed.json().user.apiKeys).toEqual([]);
      expect((await call('DELETE', '/api/v1/settings/provider-keys/openai', cookie)).statusCode).toBe(404);
    });

    it('checks each provider’s format with the spec’s messages', async () => {
      const { cookie } = await createUserWithSession(harness.app);
      for (const [provider, key, message] of [
        ['openai', 'pk-123', 'Invalid OpenAI API key format'],
        ['anthropic', 'sk-123', 'Invalid Anthropic API key format'],
        ['google', 'AIz-123', 'Invalid Google API key format'],
        ['azure', 'short', 'Azure key too short'],
        ['mistral', 'short', 'Mistral key too short'],
        ['cohere', 'short', 'Cohere key too short'],
      ] as const) {
        const response = await call('POST', `/api/v1/settings/provider-keys/${provider}`, cookie, { key });
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toMatchObject({ message, fields: { key: message } });
      }
      expect((await call('POST', '/api/v1/settings/provider-keys/azure', cookie, { key: 'abcdefghij\u0000klmn' })).statusCode).toBe(400);
      expect((await call('POST', '/api/v1/settings/provider-keys/acme', cookie, { key: 'sk-123456789' })).statusCode).toBe(400);
      expect((await call('POST', '/api/v1/settings/provider-keys/openai', cookie, {})).statusCode).toBe(400);
    });

    it('keeps a bring-your-own-keys account on its plan when its last key is removed, so a new key serves again', async () => {
      const { cookie } = await createUserWithSession(harness.app, { plan: 'byo-keys' });
      await call('POST', '/api/v1/settings/provider-keys/mistral', cookie, { key: 'mistral-key-0123456789' });
      const removed = await call('DELETE', '/api/v1/settings/provider-keys/mistral', cookie);
      expect(removed.json().user).toMatchObject({ plan: 'byo-keys', apiKeys: [] });
      const added = await call('POST', '/api/v1/settings/provider-keys/openai', cookie, { key: OPENAI_KEY });
      expect(added.json().user).toMatchObject({ plan: 'byo-keys', apiKeys: [{ provider: 'openai' }] });
    });

    it('only ever touches the caller’s own keys', async () => {
      const alice = await createUserWithSession(harness.app);
      const bob = await createUserWithSession(harness.app);
      await call('POST', '/api/v1/settings/provider-keys/cohere', alice.cookie, { key: 'cohere-key-0123456789' });
      expect((await call('DELETE', '/api/v1/settings/provider-keys/cohere', bob.cookie)).statusCode).toBe(404);
      await call('POST', '/api/v1/settings/provider-keys/cohere', bob.cookie, { key: 'cohere-key-bob-000000' });
      const keys = await loadDecryptedProviderKeys(db(), harness.app.context.secrets.encryptionKey, alice.user.id);
      expect(keys).toEqual({ cohere: 'cohere-key-0123456789' });
    });
  });

  describe('delete account', () => {
    it('needs the typed confirmation', async () => {
      const { cookie } = await createUserWithSession(harness.app);
      for (const payload of [{}, { confirmation: 'delete' }, { confirmation: 'DELETE ME' }]) {
        const response = await call('POST', '/api/v1/settings/delete-account', cookie, payload);
        expect(response.statusCode).toBe(400);
      }
      expect((await call('GET', '/api/v1/settings/sessions', cookie)).statusCode).toBe(200);
    });

    it('asks an account with a password for it: missing or wrong is a 400 and deletes nothing', async () => {
      const { cookie, user } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
      const missing = await call('POST', '/api/v1/settings/delete-account', cookie, { confirmation: 'DELETE' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toEqual({ currentPassword: DELETE_NEEDS_PASSWORD });
      const wrong = await call('POST', '/api/v1/settings/delete-account', cookie, { confirmation: 'DELETE', currentPassword: 'Not-It-0' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.fields).toEqual({ currentPassword: WRONG_CURRENT_PASSWORD });
      expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
      const right = await call('POST', '/api/v1/settings/delete-account', cookie, {
        confirmation: 'DELETE',
        currentPassword: 'Current-Passw0rd',
      });
      expect(right.statusCode).toBe(200);
      expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    });

    it('asks a single sign-on account to sign in again when its sign-in is older than the limit', async () => {
      const { cookie, user, token } = await createUserWithSession(harness.app, { authMethod: 'oidc', passwordHash: null });
      const signedInAt = new Date(Date.now() - (RECENT_SIGN_IN_MINUTES * 60_000 + 5_000));
      await db()
        .update(sessions)
        .set({ createdAt: signedInAt })
        .where(eq(sessions.tokenHash, sha256(token)));
      const refused = await call('POST', '/api/v1/settings/delete-account', cookie, { confirmation: 'DELETE' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({ code: REAUTHENTICATION_REQUIRED, message: SIGN_IN_AGAIN_TO_DELETE });
      expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
      expect((await call('GET', '/api/v1/settings/sessions', cookie)).statusCode).toBe(200);
    });

    it('revokes keys and sessions and deletes the account', async () => {
      const { cookie, user, token } = await createUserWithSession(harness.app);
      const other = await extraSession(user.id);
      const bystander = await createUserWithSession(harness.app);
      const created = await call('POST', '/api/v1/api-keys', cookie, { name: 'Doomed', environment: 'live', permissions: ['api'] });
      const { key } = created.json();
      await call('POST', '/api/v1/settings/provider-keys/azure', cookie, { key: 'azure-key-0123456789' });

      const response = await call('POST', '/api/v1/settings/delete-account', cookie, { confirmation: 'DELETE' });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['set-cookie'])).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
      expect(await resolveSession(db(), token, Date.now())).toBeNull();
      expect(await resolveSession(db(), other.token, Date.now())).toBeNull();
      expect(await findApiKeyByHash(db(), sha256(key))).toBeUndefined();
      expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
      expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id))).toEqual([]);
      expect(await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id))).toEqual([]);
      expect((await call('GET', '/api/v1/settings/sessions', cookie)).statusCode).toBe(401);
      expect((await call('GET', '/api/v1/settings/sessions', bystander.cookie)).statusCode).toBe(200);
    });

    it('changes nothing when the deletion fails: keys, provider keys and sessions stay, and the answer is a plain 500', async () => {
      const { cookie, user, token } = await createUserWithSession(harness.app);
      const created = await call('POST', '/api/v1/api-keys', cookie, { name: 'Kept', environment: 'live', permissions: ['api'] });
      const { key } = created.json();
      expect((await call('POST', '/api/v1/settings/provider-keys/azure', cookie, { key: 'azure-key-0123456789' })).statusCode).toBe(200);
      // The database refuses to delete this account's row: the deletion's transaction fails.
      await db().execute(
        sql.raw(`create function refuse_user_delete() returns trigger language plpgsql as $$
          begin
            if old.id = '${user.id}' then raise exception 'the user store refuses this deletion'; end if;
            return old;
          end $$`),
      );
      await db().execute(
        sql.raw('create trigger refuse_user_delete before delete on users for each row execute function refuse_user_delete()'),
      );
      try {
        const response = await call('POST', '/api/v1/settings/delete-account', cookie, { confirmation: 'DELETE' });
        expect(response.statusCode).toBe(500);
        expect(response.json().error.code).toBe('internal');
        expect(response.body).not.toContain('refuses');
        expect(String(response.headers['set-cookie'] ?? '')).not.toMatch(new RegExp(`${SESSION_COOKIE}=;`));
      } finally {
        await db().execute(sql.raw('drop trigger refuse_user_delete on users'));
        await db().execute(sql.raw('drop function refuse_user_delete()'));
      }
      expect(await db().select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
      expect((await findApiKeyByHash(db(), sha256(key)))?.revokedAt).toBeNull();
      expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id))).toHaveLength(1);
      expect(await resolveSession(db(), token, Date.now())).not.toBeNull();
      expect((await call('GET', '/api/v1/settings/sessions', cookie)).statusCode).toBe(200);
    });
  });

  it('needs a session', async () => {
    for (const [method, url] of [
      ['PATCH', '/api/v1/settings/profile'],
      ['POST', '/api/v1/settings/password'],
      ['GET', '/api/v1/settings/sessions'],
      ['DELETE', '/api/v1/settings/sessions/x'],
      ['POST', '/api/v1/settings/provider-keys/openai'],
      ['DELETE', '/api/v1/settings/provider-keys/openai'],
      ['POST', '/api/v1/settings/delete-account'],
    ] as const) {
      expect((await harness.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });
});
