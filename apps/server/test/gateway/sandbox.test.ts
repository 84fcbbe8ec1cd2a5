import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

describe('sandbox (test keys) through the official SDK', () => {
  let gateway: LiveGateway;
  let client: OpenAI;
  let fakes: Fakes;

  beforeAll(async () => {
    // A live upstream is configured, to show that test keys never reach it.
    fakes = await startFakes(['openai']);
    gateway = await startGateway(upstreamEnv(fakes));
    const { key } = await createAccountWithKey(gateway.app, 'free', { environment: 'test' });
    client = sdk(gateway.origin, key);
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  it('answers a chat completion naming the model, with real token counts', async () => {
    const { data: completion, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }] })
      .withResponse();
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.choices[0]?.message.content).toContain('gpt-4o-mini');
    expect(completion.choices[0]?.message.content).toContain('Hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(5);
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
    expect(response.headers.get('x-conductor-provider')).toBe('sandbox');
    expect(response.headers.get('x-conductor-model')).toBe('gpt-4o-mini');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(response.headers.get('x-conductor-overhead-ms'))).toBeGreaterThanOrEqual(0);
  });

  it('streams the same answer chunk by chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-3-5-sonnet',
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBeGreaterThan(5);
    expect(text).toContain('claude-3-5-sonnet');
    expect(usage?.completion_tokens).toBeGreaterThan(5);
  });

  it('simulates upstream latency on request, outside the gateway overhead', async () => {
    const started = performance.now();
    const { data, response } = await client.chat.completions
      .create(
        { model: 'gpt-4o', messages: [{ role: 'user', content: 'Slowly' }] },
        { headers: { 'x-conductor-sandbox-latency-ms': '300' } },
      )
      .withResponse();
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(data.choices[0]?.message.content).toContain('gpt-4o');
    expect(Number(response.headers.get('x-conductor-overhead-ms'))).toBeLessThan(300);
    const invalid = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }, { headers: { 'x-conductor-sandbox-latency-ms': 'soon' } })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it('honours max_tokens and never calls an upstream', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 4,
    });
    expect(completion.usage?.completion_tokens).toBe(4);
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(fake(fakes, 'openai').requests).toHaveLength(0);
  });

  it('takes null parameters from the SDK as left out, as the OpenAI API does', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello there' }],
      max_tokens: null,
      temperature: null,
      top_p: null,
      stop: null,
      seed: null,
      n: null,
      stream: null,
      stream_options: null,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toContain('Hello there');
    const refused = await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('unsupported_parameter');
  });

  it('reports every provider as served by the sandbox', async () => {
    const providers = (await client.get('/providers')) as { data: { id: string; key_source: string; configured: boolean }[] };
    expect(providers.data).toHaveLength(6);
    expect(providers.data.every((provider) => provider.configured && provider.key_source === 'sandbox')).toBe(true);
  });
});
