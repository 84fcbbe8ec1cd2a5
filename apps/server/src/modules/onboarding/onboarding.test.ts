import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { providerKeys, users } from '../../db/schema/index.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';
import { loadDecryptedProviderKeys } from '../provider-keys/provider-keys.repository.ts';
import { ONBOARDING_KEYS_CLOSED, ONBOARDING_KEYS_PAID_PLAN } from './onboarding.service.ts';

const KEYS = {
  openai: 'sk-proj0123456789abcdefABCDEF',
  anthropic: 'sk-ant-api03_abc-DEF_0123456789',
  google: 'AIzaSyA-0123456789_abcdefghijk',
  azure: '0123456789abcdef0123',
  mistral: 'mistral-0123456789',
  cohere: 'cohere-0123456789',
};

describe('onboarding', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const db = () => harness.app.context.database.db;
  const saveKeys = (cookie: string, payload: unknown) =>
    harness.app.inject({
      method: 'POST',
      url: '/api/v1/onboarding/provider-keys',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify(payload),
    });
  const complete = (cookie: string, payload: unknown) =>
    harness.app.inject({
      method: 'POST',
      url: '/api/v1/onboarding/complete',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify(payload),
    });

  it('rejects each malformed key with the spec’s message', async () => {
    const { cookie } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    for (const [provider, key, message] of [
      ['openai', 'sk_live_123', 'Invalid OpenAI API key format'],
      ['openai', 'sk-abc def', 'Invalid OpenAI API key format'],
      ['anthropic', 'sk-antx-123', 'Invalid Anthropic API key format'],
      ['google', 'AIxa123', 'Invalid Google API key format'],
      ['azure', '123456789', 'Azure key too short'],
      ['mistral', 'abc', 'Mistral key too short'],
      ['cohere', 'abc', 'Cohere key too short'],
    ] as const) {
      const response = await saveKeys(cookie, { [provider]: key });
      expect(response.statusCode, `${provider} ${key}`).toBe(400);
      expect(response.json().error.fields[provider]).toBe(message);
    }
  });

  it('needs at least one key and ignores blanks', async () => {
    const { cookie } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    for (const payload of [{}, { openai: '', anthropic: '   ' }]) {
      const response = await saveKeys(cookie, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe('Enter at least one provider key, or go back and choose Hosted Service.');
    }
    expect((await saveKeys(cookie, { openai: KEYS.openai, acme: 'x' })).statusCode).toBe(400);
  });

  it('saves keys encrypted, masks them (first 8 + last 4) and sets the byo-keys plan', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    const response = await saveKeys(cookie, { ...KEYS, cohere: '' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user.plan).toBe('byo-keys');
    expect(body.user.onboardingCompleted).toBe(false);
    expect(body.user.apiKeys).toEqual(
      ['anthropic', 'azure', 'google', 'mistral', 'openai'].map((provider) => {
        const key = KEYS[provider as keyof typeof KEYS];
        return { provider, masked: `${key.slice(0, 8)}...${key.slice(-4)}`, active: true, endpoint: null };
      }),
    );
    for (const key of Object.values(KEYS)) expect(response.body).not.toContain(key);

    const rows = await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id));
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const plain = KEYS[row.provider as keyof typeof KEYS];
      expect(row.ciphertext.equals(Buffer.from(plain))).toBe(false);
      expect(row.ciphertext.includes(Buffer.from(plain.slice(4, 14)))).toBe(false);
    }
    const decrypted = await loadDecryptedProviderKeys(db(), harness.app.context.secrets.encryptionKey, user.id);
    expect(decrypted).toEqual({
      openai: KEYS.openai,
      anthropic: KEYS.anthropic,
      google: KEYS.google,
      azure: KEYS.azure,
      mistral: KEYS.mistral,
    });

    // Saving again replaces the list with the new non-empty entries.
    const again = await saveKeys(cookie, { google: KEYS.google });
    expect(again.json().user.apiKeys.map((key: { provider: string }) => key.provider)).toEqual(['google']);

    const done = await complete(cookie, { mode: 'byo-keys' });
    expect(done.statusCode).toBe(200);
    expect(done.json().user).toMatchObject({ onboardingCompleted: true, plan: 'byo-keys' });
  });

  it('refuses to replace keys or the plan once onboarding is finished, or from a paid plan (409, nothing changed)', async () => {
    const finished = await createUserWithSession(harness.app, { onboardingCompleted: true });
    const late = await saveKeys(finished.cookie, { openai: KEYS.openai });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(ONBOARDING_KEYS_CLOSED);

    const paying = await createUserWithSession(harness.app, { onboardingCompleted: false, plan: 'enterprise' });
    const paid = await saveKeys(paying.cookie, { openai: KEYS.openai });
    expect(paid.statusCode).toBe(409);
    expect(paid.json().error.message).toBe(ONBOARDING_KEYS_PAID_PLAN);
    expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, paying.user.id))).toHaveLength(0);
    const [row] = await db().select().from(users).where(eq(users.id, paying.user.id));
    expect(row?.plan).toBe('enterprise');
  });

  it('finishes a hosted onboarding without changing the plan', async () => {
    const { cookie } = await createUserWithSession(harness.app, { onboardingCompleted: false, plan: 'free' });
    const noKeys = await complete(cookie, { mode: 'byo-keys' });
    expect(noKeys.statusCode).toBe(400);
    const response = await complete(cookie, { mode: 'hosted' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ onboardingCompleted: true, plan: 'free', apiKeys: [] });
    const session = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(session.json().user.onboardingCompleted).toBe(true);
  });

  it('honours Hosted chosen after a keys save: the save is undone (keys removed, plan free)', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { onboardingCompleted: false, plan: 'free' });
    expect((await saveKeys(cookie, { openai: KEYS.openai })).json().user.plan).toBe('byo-keys');
    const response = await complete(cookie, { mode: 'hosted' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ onboardingCompleted: true, plan: 'free', apiKeys: [] });
    expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id))).toHaveLength(0);
  });

  it('finishes once: a later call changes neither the plan nor the keys', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    await saveKeys(cookie, { openai: KEYS.openai });
    expect((await complete(cookie, { mode: 'byo-keys' })).statusCode).toBe(200);
    const again = await complete(cookie, { mode: 'hosted' });
    expect(again.statusCode).toBe(200);
    expect(again.json().user).toMatchObject({ onboardingCompleted: true, plan: 'byo-keys' });
    expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id))).toHaveLength(1);
  });

  it('keeps users apart and refuses bad input', async () => {
    const alice = await createUserWithSession(harness.app, { onboardingCompleted: false });
    const bob = await createUserWithSession(harness.app, { onboardingCompleted: false });
    await saveKeys(alice.cookie, { openai: KEYS.openai });
    await saveKeys(bob.cookie, { mistral: KEYS.mistral });
    expect(await loadDecryptedProviderKeys(db(), harness.app.context.secrets.encryptionKey, alice.user.id)).toEqual({
      openai: KEYS.openai,
    });
    for (const payload of [{}, { mode: 'self-hosted' }, { mode: 'hosted', plan: 'enterprise' }]) {
      expect((await complete(alice.cookie, payload)).statusCode).toBe(400);
    }
    expect((await saveKeys(alice.cookie, { openai: 42 })).statusCode).toBe(400);
    expect((await saveKeys(alice.cookie, { mistral: 'mistral key with spaces' })).statusCode).toBe(400);
    expect((await saveKeys(alice.cookie, { cohere: 'cohere-\u0000-0123456789' })).statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await harness.app.inject({ method: 'POST', url: '/api/v1/onboarding/provider-keys', payload: {} })).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'POST', url: '/api/v1/onboarding/complete', payload: {} })).statusCode).toBe(401);
  });
});
