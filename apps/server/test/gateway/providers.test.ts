import { PROVIDER_IDS, type ProviderId } from '@conductor/shared';
import { ModelList, ProviderList } from '@conductor/shared/openai/models';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  HOSTED_KEYS,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

const MODEL_OF: Record<ProviderId, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku',
  google: 'gemini-1.5-flash',
  azure: 'azure-gpt-4o-mini',
  mistral: 'mistral-small-latest',
  cohere: 'command-r',
};

describe('every provider through its fake upstream, with the official SDK', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;
  let client: OpenAI;
  let key: string;

  beforeAll(async () => {
    fakes = await startFakes(PROVIDER_IDS);
    gateway = await startGateway(upstreamEnv(fakes));
    ({ key } = await createAccountWithKey(gateway.app, 'enterprise'));
    client = sdk(gateway.origin, key);
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  describe.each(PROVIDER_IDS)('%s', (provider) => {
    const model = MODEL_OF[provider];

    it('answers JSON with the hosted key', async () => {
      const before = fake(fakes, provider).requests.length;
      const { data, response } = await client.chat.completions
        .create({
          model,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ],
          max_tokens: 50,
        })
        .withResponse();
      expect(data.object).toBe('chat.completion');
      expect(data.model).toBe(model);
      expect(data.choices[0]?.message.content?.length).toBeGreaterThan(0);
      expect(data.choices[0]?.finish_reason).toBeTruthy();
      expect(data.usage?.total_tokens).toBeGreaterThan(0);
      expect(response.headers.get('x-conductor-provider')).toBe(provider);
      expect(response.headers.get('x-conductor-model')).toBe(model);
      const requests = fake(fakes, provider).requests.slice(before);
      expect(requests).toHaveLength(1);
      expect(requests[0]?.apiKey).toBe(HOSTED_KEYS[provider]);
      expect(requests[0]?.stream).toBe(false);
    });

    it('streams', async () => {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let finish: string | null | undefined;
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        expect(chunk.model).toBe(model);
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text.length).toBeGreaterThan(0);
      expect(finish).toBeTruthy();
      expect(usage?.total_tokens).toBeGreaterThan(0);
    });
  });

  it('lists the models with owner, context length and prices', async () => {
    const page = await client.models.list();
    const ids = page.data.map((model) => model.id);
    expect(ids).toContain('gpt-4o');
    expect(ids).toContain('claude-3-5-sonnet');
    const response = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    const list = ModelList.parse(await response.json());
    const gpt4o = list.data.find((model) => model.id === 'gpt-4o');
    expect(gpt4o).toMatchObject({
      object: 'model',
      owned_by: 'openai',
      context_length: 128_000,
      pricing: { input_per_million: 2.5, output_per_million: 10 },
    });
    expect((await client.models.retrieve('claude-3')).id).toBe('claude-3-5-sonnet');
    await expect(client.models.retrieve('no-such-model')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('lists the providers: configured, healthy, and their models', async () => {
    const response = await fetch(`${gateway.origin}/v1/providers`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    const list = ProviderList.parse(await response.json());
    expect(list.data.map((provider) => provider.id)).toEqual([...PROVIDER_IDS]);
    for (const provider of list.data) {
      expect(provider).toMatchObject({ configured: true, key_source: 'hosted', healthy: true });
      expect(provider.models).toContain(MODEL_OF[provider.id]);
    }
  });

  it('refuses the catalogue without a key', async () => {
    const response = await fetch(`${gateway.origin}/v1/providers`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
  });
});
