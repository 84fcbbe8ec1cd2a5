import { AZURE_ENDPOINT_NEEDS_KEY, AZURE_ENDPOINT_REFUSED } from '@conductor/shared/schemas/onboarding';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addKey,
  closeFakes,
  type Fakes,
  fake,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
} from '../../../test/gateway/gateway-helpers.ts';
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

  it('takes every key as optional (the spec): blanks or none at all save the byo-keys plan with no key', async () => {
    for (const payload of [{}, { openai: '', anthropic: '   ' }]) {
      const { cookie } = await createUserWithSession(harness.app, { onboardingCompleted: false });
      const response = await saveKeys(cookie, payload);
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ plan: 'byo-keys', apiKeys: [] });
      // The summary's Go to Dashboard then finishes it.
      expect((await complete(cookie, { mode: 'byo-keys' })).json().user).toMatchObject({ onboardingCompleted: true, plan: 'byo-keys' });
    }
    const { cookie } = await createUserWithSession(harness.app, { onboardingCompleted: false });
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
    // Bring Your Own Keys finishes only after its keys step was saved.
    const unsaved = await complete(cookie, { mode: 'byo-keys' });
    expect(unsaved.statusCode).toBe(400);
    expect(unsaved.json().error.message).toBe('Save your provider keys before finishing, or choose Hosted Service.');
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

  it('stores the Azure key with its own resource URL, shown as Settings shows it', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    const response = await saveKeys(cookie, {
      openai: KEYS.openai,
      azure: KEYS.azure,
      azureEndpoint: ' https://my-resource.openai.azure.com/ ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user.apiKeys).toEqual([
      { provider: 'azure', masked: '01234567...0123', active: true, endpoint: 'https://my-resource.openai.azure.com' },
      { provider: 'openai', masked: 'sk-proj0...CDEF', active: true, endpoint: null },
    ]);
    const rows = await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id));
    expect(Object.fromEntries(rows.map((row) => [row.provider, row.baseUrl]))).toEqual({
      azure: 'https://my-resource.openai.azure.com',
      openai: null,
    });
    // The account's own view (the session) carries it too, and a blank URL means the server's resource.
    const session = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { cookie } });
    expect(session.json().user.apiKeys[0]).toMatchObject({ provider: 'azure', endpoint: 'https://my-resource.openai.azure.com' });
    const blank = await saveKeys(cookie, { azure: KEYS.azure, azureEndpoint: '   ' });
    expect(blank.statusCode).toBe(200);
    expect(blank.json().user.apiKeys).toEqual([{ provider: 'azure', masked: '01234567...0123', active: true, endpoint: null }]);
    const cognitive = await saveKeys(cookie, { azure: KEYS.azure, azureEndpoint: 'https://my-resource.cognitiveservices.azure.com' });
    expect(cognitive.json().user.apiKeys[0].endpoint).toBe('https://my-resource.cognitiveservices.azure.com');
  });

  it('refuses a resource URL that is not an Azure resource, with a message on the field (400, nothing saved)', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    for (const [azureEndpoint, message] of [
      ['https://evil.example.com', AZURE_ENDPOINT_REFUSED],
      ['http://my-resource.openai.azure.com', AZURE_ENDPOINT_REFUSED],
      ['https://user:pw@my-resource.openai.azure.com', AZURE_ENDPOINT_REFUSED],
      ['https://my-resource.openai.azure.com:8443', AZURE_ENDPOINT_REFUSED],
      ['https://openai.azure.com', AZURE_ENDPOINT_REFUSED],
      ['https://my-resource.openai.azure.com.evil.example', AZURE_ENDPOINT_REFUSED],
      ['https://[::1]', AZURE_ENDPOINT_REFUSED],
      ['https://my-resource.openai.azure.com?x=1', AZURE_ENDPOINT_REFUSED],
      ['https://my\u0000resource.openai.azure.com', AZURE_ENDPOINT_REFUSED],
      // Loopback is for tests that aim the gateway at fake upstreams only (UPSTREAM_ALLOW_LOCAL), as in Settings.
      ['http://127.0.0.1:9', AZURE_ENDPOINT_REFUSED],
      ['http://localhost:9', AZURE_ENDPOINT_REFUSED],
      // Settings' form rule: a bare origin.
      ['not a url', 'Enter the resource URL, like https://your-resource.openai.azure.com'],
      ['https://my-resource.openai.azure.com/openai/deployments', 'Enter the resource URL, like https://your-resource.openai.azure.com'],
      [`https://${'a'.repeat(300)}.openai.azure.com`, 'Too big: expected string to have <=300 characters'],
    ] as const) {
      const response = await saveKeys(cookie, { azure: KEYS.azure, azureEndpoint });
      expect(response.statusCode, azureEndpoint).toBe(400);
      expect(response.json().error.fields, azureEndpoint).toEqual({ azureEndpoint: message });
    }
    expect((await saveKeys(cookie, { azure: KEYS.azure, azureEndpoint: 42 })).statusCode).toBe(400);
    expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id))).toHaveLength(0);
    const [row] = await db().select().from(users).where(eq(users.id, user.id));
    expect(row?.plan).toBe('free');
  });

  it('refuses a resource URL without the Azure key (400 on the field)', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { onboardingCompleted: false });
    for (const payload of [
      { openai: KEYS.openai, azureEndpoint: 'https://my-resource.openai.azure.com' },
      { openai: KEYS.openai, azure: '  ', azureEndpoint: 'https://my-resource.openai.azure.com' },
      { azureEndpoint: 'https://my-resource.openai.azure.com' },
    ]) {
      const response = await saveKeys(cookie, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.azureEndpoint).toBe(AZURE_ENDPOINT_NEEDS_KEY);
    }
    expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, user.id))).toHaveLength(0);
  });

  it('needs a session', async () => {
    expect((await harness.app.inject({ method: 'POST', url: '/api/v1/onboarding/provider-keys', payload: {} })).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'POST', url: '/api/v1/onboarding/complete', payload: {} })).statusCode).toBe(401);
  });
});

/** The gateway sends a key saved in onboarding to the resource given with it (as one saved in Settings). */
describe('onboarding: own Azure OpenAI resource through the gateway', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['azure']);
    // No server Azure resource (no AZURE_OPENAI_BASE_URL); loopback resources are allowed (UPSTREAM_ALLOW_LOCAL, tests only).
    gateway = await startGateway({});
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  it('serves the azure models on the account’s resource with its key, from the next request on', async () => {
    const { user, cookie } = await createUserWithSession(gateway.app, { onboardingCompleted: false });
    const { key } = await addKey(gateway.app, user.id);
    const azureOf = async () =>
      ((await sdk(gateway.origin, key).get('/providers')) as { data: { id: string; configured: boolean; key_source: string }[] }).data.find(
        (provider) => provider.id === 'azure',
      );
    // Read (and cached) before the save: the save must drop the cached account.
    expect(await azureOf()).toMatchObject({ configured: false });

    const azureKey = '0123456789abcdef0123456789abcdef';
    const saved = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/onboarding/provider-keys',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify({ azure: azureKey, azureEndpoint: `${fake(fakes, 'azure').baseUrl}/` }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().user.apiKeys).toEqual([
      { provider: 'azure', masked: expect.any(String), active: true, endpoint: fake(fakes, 'azure').baseUrl },
    ]);
    expect(await azureOf()).toMatchObject({ configured: true, key_source: 'byok' });

    const before = fake(fakes, 'azure').requests.length;
    const { response } = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'azure-gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(response.headers.get('x-conductor-provider')).toBe('azure');
    const requests = fake(fakes, 'azure').requests.slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.apiKey).toBe(azureKey);
  });
});
