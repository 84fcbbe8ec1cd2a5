import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonHeaders } from '../../src/modules/portal/portal-testing.ts';
import { createUserWithSession } from '../helpers.ts';
import { type FakeUpstream, startFakeUpstream } from '../fake-upstreams/index.ts';
import {
  addKey,
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

const AZURE_KEY = '0123456789abcdef0123456789abcdef';

/** Settings' save of a provider key, as the dashboard sends it. */
const saveProviderKey = (gateway: LiveGateway, cookie: string, provider: string, payload: unknown) =>
  gateway.app.inject({
    method: 'POST',
    url: `/api/v1/settings/provider-keys/${provider}`,
    headers: jsonHeaders(cookie),
    payload: JSON.stringify(payload),
  });

/** An Azure OpenAI key belongs to one resource: the account gives that resource with its key. */
describe('own Azure OpenAI key with its own resource', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['azure']);
    // The server itself has no Azure resource (no AZURE_OPENAI_BASE_URL) and no hosted Azure key.
    gateway = await startGateway({});
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  const save = (cookie: string, provider: string, payload: unknown) => saveProviderKey(gateway, cookie, provider, payload);

  it('serves azure models on the account’s own resource, with its own key', async () => {
    const { user, cookie } = await createUserWithSession(gateway.app, { plan: 'byo-keys' });
    const { key } = await addKey(gateway.app, user.id);
    const saved = await save(cookie, 'azure', { key: AZURE_KEY, endpoint: `${fake(fakes, 'azure').baseUrl}/` });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().user.apiKeys).toEqual([
      { provider: 'azure', masked: expect.any(String), active: true, endpoint: fake(fakes, 'azure').baseUrl },
    ]);

    const providers = (await sdk(gateway.origin, key).get('/providers')) as {
      data: { id: string; configured: boolean; key_source: string }[];
    };
    expect(providers.data.find((provider) => provider.id === 'azure')).toMatchObject({ configured: true, key_source: 'byok' });

    const before = fake(fakes, 'azure').requests.length;
    const { data, response } = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'azure-gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(data.model).toBe('azure-gpt-4o-mini');
    expect(response.headers.get('x-conductor-provider')).toBe('azure');
    const requests = fake(fakes, 'azure').requests.slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.apiKey).toBe(AZURE_KEY);
  });

  it('refuses an endpoint that is not an Azure resource URL, and an endpoint for another provider', async () => {
    const { cookie } = await createUserWithSession(gateway.app, { plan: 'byo-keys' });
    for (const endpoint of [
      'https://evil.example.com',
      'http://myres.openai.azure.com',
      'https://user:pw@myres.openai.azure.com',
      'not a url',
    ]) {
      const refused = await save(cookie, 'azure', { key: AZURE_KEY, endpoint });
      expect(refused.statusCode, endpoint).toBe(400);
      expect(Object.keys(refused.json().error.fields ?? {})).toEqual(['endpoint']);
    }
    const openai = await save(cookie, 'openai', { key: 'sk-ownOpenAiKey000001', endpoint: 'https://myres.openai.azure.com' });
    expect(openai.statusCode).toBe(400);
    expect(openai.json().error.fields).toEqual({ endpoint: 'Only an Azure OpenAI key takes an endpoint.' });
  });

  it('without an own resource and without the server’s, the azure models are not configured', async () => {
    const { user, cookie } = await createUserWithSession(gateway.app, { plan: 'byo-keys' });
    const { key } = await addKey(gateway.app, user.id);
    expect((await save(cookie, 'azure', { key: AZURE_KEY })).statusCode).toBe(200);
    const refused = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'azure-gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error as { status: number; code: string });
    expect(refused).toMatchObject({ status: 400, code: 'provider_not_configured' });
  });
});

/** The server's Azure resource and an account's own are separate endpoints, each with its own health. */
describe('own Azure resource health is its own', () => {
  let fakes: Fakes;
  let own: FakeUpstream;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['azure', 'openai']);
    own = await startFakeUpstream({ provider: 'azure' });
    gateway = await startGateway({ ...upstreamEnv(fakes), GATEWAY_BREAKER_FAILURES: '2', GATEWAY_BREAKER_COOLDOWN_MS: '60000' });
  });
  afterAll(async () => {
    await gateway?.close();
    await own?.close();
    await closeFakes(fakes);
  });

  const azureHealth = async (key: string) => {
    const providers = (await sdk(gateway.origin, key).get('/providers')) as { data: { id: string; healthy: boolean }[] };
    return providers.data.find((provider) => provider.id === 'azure')?.healthy;
  };

  it("the server's resource failing does not mark the account's own resource unhealthy, nor move it down a fallback", async () => {
    // An account on the server's resource trips its breaker.
    const hosted = await createAccountWithKey(gateway.app, 'enterprise');
    fake(fakes, 'azure').setBehaviour({ kind: 'status', status: 500 });
    const failed = await sdk(gateway.origin, hosted.key)
      .chat.completions.create({ model: 'azure-gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => ({ status: 200 }),
        (error: unknown) => error as { status: number },
      );
    expect(failed.status).toBe(502);
    expect(await azureHealth(hosted.key)).toBe(false);

    // An account with its own Azure resource.
    const { user, cookie } = await createUserWithSession(gateway.app, { plan: 'enterprise' });
    const { key } = await addKey(gateway.app, user.id);
    const saved = await saveProviderKey(gateway, cookie, 'azure', { key: AZURE_KEY, endpoint: own.baseUrl });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await azureHealth(key)).toBe(true);

    // Fallback [azure, openai]: the healthy own resource stays first and serves.
    const before = own.requests.length;
    const { response } = await sdk(gateway.origin, key)
      .chat.completions.create({
        model: 'azure-gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi' }],
        // @ts-expect-error Conductor's routing extension is not in the SDK's types.
        conductor: {
          strategy: 'fallback',
          targets: [
            { provider: 'azure', model: 'azure-gpt-4o-mini' },
            { provider: 'openai', model: 'gpt-4o-mini' },
          ],
        },
      })
      .withResponse();
    expect(response.headers.get('x-conductor-provider')).toBe('azure');
    expect(own.requests.slice(before).map((request) => request.apiKey)).toEqual([AZURE_KEY]);
  });
});
