import { eq } from 'drizzle-orm';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { invalidateAccountCache, invalidateProviderKeyCache } from '../../src/gateway/gateway.plugin.ts';
import { upsertProviderKey } from '../../src/modules/provider-keys/provider-keys.repository.ts';
import type { FakeBehaviour } from '../fake-upstreams/index.ts';
import {
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  type LiveGateway,
  resetFakes,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

const FALLBACK = JSON.stringify({
  strategy: 'fallback',
  targets: [
    { provider: 'openai', model: 'gpt-4o-mini' },
    { provider: 'anthropic', model: 'claude-3-5-haiku' },
  ],
});
const messages = [{ role: 'user' as const, content: 'Hello' }];

describe('failover through the official SDK', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;
  let client: OpenAI;

  beforeAll(async () => {
    fakes = await startFakes(['openai', 'anthropic', 'mistral']);
    gateway = await startGateway({ ...upstreamEnv(fakes), UPSTREAM_TIMEOUT_MS: '700', GATEWAY_BREAKER_FAILURES: '50' });
    const { key } = await createAccountWithKey(gateway.app, 'enterprise');
    client = sdk(gateway.origin, key);
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });
  beforeEach(() => resetFakes(fakes));

  const failures: [string, FakeBehaviour, string][] = [
    ['a 500', { kind: 'status', status: 500 }, '500'],
    ['a 429 with Retry-After', { kind: 'status', status: 429, headers: { 'retry-after': '30' } }, '429'],
    ['a timeout', { kind: 'hang' }, 'timeout'],
    ['a connection reset', { kind: 'reset' }, 'network-error'],
  ];

  it.each(failures)('falls back from %s to the second target (JSON): the client sees one success', async (_name, behaviour, label) => {
    fake(fakes, 'openai').enqueue(behaviour);
    const started = performance.now();
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': FALLBACK } })
      .withResponse();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(data.model).toBe('claude-3-5-haiku');
    expect(data.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(response.headers.get('x-conductor-provider')).toBe('anthropic');
    expect(response.headers.get('x-conductor-route')).toContain(`openai/gpt-4o-mini=${label}`);
    expect(response.headers.get('x-conductor-route')).toContain('anthropic/claude-3-5-haiku=ok');
    expect(fake(fakes, 'openai').requests).toHaveLength(1);
    expect(fake(fakes, 'anthropic').requests).toHaveLength(1);
  });

  it.each(failures)('falls back from %s before the first byte of a stream', async (_name, behaviour) => {
    fake(fakes, 'openai').enqueue(behaviour);
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages, stream: true },
      { headers: { 'x-conductor-routing': FALLBACK } },
    );
    let text = '';
    const models = new Set<string>();
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      models.add(chunk.model);
    }
    expect(text.length).toBeGreaterThan(0);
    expect([...models]).toEqual(['claude-3-5-haiku']);
  });

  it('accepts the policy in the body extension too', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'status', status: 503 });
    const body = { model: 'gpt-4o-mini', messages, conductor: JSON.parse(FALLBACK) } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const data = await client.chat.completions.create(body);
    expect(data.model).toBe('claude-3-5-haiku');
  });

  it('retries a single target after its Retry-After, and keeps the wait out of the overhead', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const started = performance.now();
    const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(data.model).toBe('gpt-4o-mini');
    expect(response.headers.get('x-conductor-route')).toBe('single (default); openai/gpt-4o-mini=429, openai/gpt-4o-mini=ok');
    expect(Number(response.headers.get('x-conductor-overhead-ms'))).toBeLessThan(500);
  });

  it('passes a long Retry-After back to the caller as a 429 instead of waiting', async () => {
    fake(fakes, 'openai').setBehaviour({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as APIError).headers?.get('retry-after')).toBe('120');
    expect(fake(fakes, 'openai').requests).toHaveLength(1);
  });

  it('does not fail over a request the provider calls invalid', async () => {
    fake(fakes, 'openai').enqueue({
      kind: 'status',
      status: 400,
      body: { error: { message: 'bad temperature', type: 'invalid_request_error' } },
    });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': FALLBACK } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(fake(fakes, 'anthropic').requests).toHaveLength(0);
  });

  it('relays the code and param of a request the provider refuses: the SDK reads context_length_exceeded', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'fixture', name: 'error-400.json' });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': FALLBACK } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as APIError;
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('context_length_exceeded');
    expect(refused.param).toBe('messages');
    expect(refused.type).toBe('invalid_request_error');
    expect(refused.message).toContain("OpenAI: This model's maximum context length is 128000 tokens.");
    expect(refused.headers?.get('x-conductor-route')).toBe('fallback (header); openai/gpt-4o-mini=400');
    expect(fake(fakes, 'anthropic').requests).toHaveLength(0);
  });

  it('answers a refused stream (before its first byte) with the same envelope, and maps Anthropic’s overflow to it', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'fixture', name: 'error-400.json' });
    const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages, stream: true }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message:
          "OpenAI: This model's maximum context length is 128000 tokens. However, your messages resulted in 130542 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });

    fake(fakes, 'anthropic').enqueue({ kind: 'fixture', name: 'error-prompt-too-long.json' });
    const anthropic = await client.chat.completions.create({ model: 'claude-3-5-haiku', messages }).catch((caught: unknown) => caught);
    expect(anthropic).toBeInstanceOf(OpenAI.BadRequestError);
    expect((anthropic as APIError).error).toEqual({
      message: 'Anthropic: prompt is too long: 219898 tokens > 200000 maximum',
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
  });

  it('fails over when a provider refuses the server’s hosted key, and answers 502 (not 401) when no target is left', async () => {
    fake(fakes, 'openai').enqueue({
      kind: 'status',
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    });
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': FALLBACK } })
      .withResponse();
    expect(data.model).toBe('claude-3-5-haiku');
    expect(response.headers.get('x-conductor-route')).toContain('openai/gpt-4o-mini=401');

    fake(fakes, 'openai').enqueue({ kind: 'status', status: 403 });
    const alone = await sdk(gateway.origin, (await createAccountWithKey(gateway.app, 'enterprise')).key, { maxRetries: 2 })
      .chat.completions.create({ model: 'gpt-4o-mini', messages })
      .withResponse()
      .catch((error: unknown) => error);
    expect(alone).toBeInstanceOf(OpenAI.InternalServerError);
    expect((alone as APIError).status).toBe(502);
    expect((alone as APIError).code).toBe('upstream_hosted_key_rejected');
    expect((alone as APIError).headers?.get('x-should-retry')).toBe('false');
    // The SDK did not retry it (a replaced key does not come back in seconds).
    expect(fake(fakes, 'openai').requests).toHaveLength(2);
  });

  it('a provider account out of credit (insufficient_quota) is not retried by the SDK', async () => {
    fake(fakes, 'openai').setBehaviour({ kind: 'fixture', name: 'insufficient-quota.json' });
    const refused = await sdk(gateway.origin, (await createAccountWithKey(gateway.app, 'enterprise')).key, { maxRetries: 2 })
      .chat.completions.create({ model: 'gpt-4o-mini', messages })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as APIError).code).toBe('upstream_quota_exceeded');
    expect((refused as APIError).headers?.get('x-should-retry')).toBe('false');
    expect(fake(fakes, 'openai').requests).toHaveLength(1);
  });

  it('does not fail over when a provider refuses the account’s own key: the 401 names the provider key', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'enterprise');
    await upsertProviderKey(
      gateway.app.context.database.db,
      gateway.app.context.secrets.encryptionKey,
      userId,
      'openai',
      'sk-ownRevokedOpenAiKey0001',
      Date.now(),
    );
    invalidateProviderKeyCache(userId);
    fake(fakes, 'openai').enqueue({ kind: 'status', status: 401 });
    const error = await sdk(gateway.origin, key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': FALLBACK } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as APIError).code).toBe('upstream_authentication_failed');
    expect(fake(fakes, 'openai').requests.at(-1)?.apiKey).toBe('sk-ownRevokedOpenAiKey0001');
    expect(fake(fakes, 'anthropic').requests).toHaveLength(0);
  });

  it('ends a stream that breaks after the first byte with an error event the SDK raises', async () => {
    fake(fakes, 'openai').enqueue({
      kind: 'break-stream',
      afterEvents: 2,
      text: 'The first words and then a very long rest of the answer',
    });
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages, stream: true },
      { headers: { 'x-conductor-routing': FALLBACK } },
    );
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught);
    expect(text.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String((error as Error).message)).toMatch(/stream broke/);
    expect(fake(fakes, 'anthropic').requests).toHaveLength(0);
  });

  it('fails over a stream whose provider reports an error after its opening events but before any text', async () => {
    // Anthropic's documented mid-stream failure: message_start and content_block_start, then `event: error`.
    fake(fakes, 'anthropic').enqueue({
      kind: 'break-stream',
      afterEvents: 2,
      errorEvent: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    });
    const routing = JSON.stringify({
      strategy: 'fallback',
      targets: [
        { provider: 'anthropic', model: 'claude-3-5-haiku' },
        { provider: 'openai', model: 'gpt-4o-mini' },
      ],
    });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'claude-3-5-haiku', messages, stream: true }, { headers: { 'x-conductor-routing': routing } })
      .withResponse();
    let text = '';
    const models = new Set<string>();
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      models.add(chunk.model);
    }
    expect(text.length).toBeGreaterThan(0);
    expect([...models]).toEqual(['gpt-4o-mini']);
    expect(response.headers.get('x-conductor-route')).toMatch(/anthropic\/claude-3-5-haiku=[a-z-]+, openai\/gpt-4o-mini=ok$/);
  });

  it('fails over a stream reset after its role-only first chunk (nothing of the answer was sent)', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'break-stream', afterEvents: 1, text: 'The first words and the rest' });
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages, stream: true },
      { headers: { 'x-conductor-routing': FALLBACK } },
    );
    const models = new Set<string>();
    for await (const chunk of stream) models.add(chunk.model);
    expect([...models]).toEqual(['claude-3-5-haiku']);
  });

  it('does not ask the same upstream again after it timed out on an answer (it may still be generating it)', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'hang' });
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages }).catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(504);
    expect((error as APIError).headers?.get('x-conductor-route')).toBe('single (default); openai/gpt-4o-mini=timeout');
    expect(fake(fakes, 'openai').requests).toHaveLength(1);
  });

  it('aborts the upstream request when the client goes away mid-stream', async () => {
    fake(fakes, 'openai').enqueue({ kind: 'slow-stream', intervalMs: 150, text: 'one two three four five six seven eight nine ten' });
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    for await (const _chunk of stream) break;
    const upstream = fake(fakes, 'openai');
    await expect.poll(() => upstream.requests[0]?.closedEarly, { timeout: 3_000 }).toBe(true);
  });

  it('routes by cost to the cheapest model of the class that has a key', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'claude-3-5-haiku', messages }, { headers: { 'x-conductor-routing': 'cost' } })
      .withResponse();
    expect(data.model).toBe('gpt-4o-mini');
    expect(response.headers.get('x-conductor-route')).toMatch(/^cost \(header\); openai\/gpt-4o-mini=ok$/);
  });

  it('balances by weight', async () => {
    const policy = (openai: number, anthropic: number) =>
      JSON.stringify({
        strategy: 'loadbalance',
        targets: [
          { provider: 'openai', model: 'gpt-4o-mini', weight: openai },
          { provider: 'anthropic', model: 'claude-3-5-haiku', weight: anthropic },
        ],
      });
    const served = async (routing: string) => {
      const models: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        models.push(
          (await client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': routing } })).model,
        );
      }
      return models;
    };
    expect(new Set(await served(policy(1000, 0.001)))).toEqual(new Set(['gpt-4o-mini']));
    expect(new Set(await served(policy(0.001, 1000)))).toEqual(new Set(['claude-3-5-haiku']));
  });

  it('refuses an invalid routing header with a 400 naming it', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': 'fastest' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as APIError).param).toBe('x-conductor-routing');
  });

  it('names a target no provider serves where it was sent: the header, or the body extension', async () => {
    const policy = { strategy: 'fallback', targets: [{ provider: 'anthropic', model: 'gpt-4o' }] };
    const inHeader = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages }, { headers: { 'x-conductor-routing': JSON.stringify(policy) } })
      .catch((caught: unknown) => caught);
    expect(inHeader).toBeInstanceOf(OpenAI.BadRequestError);
    expect((inHeader as APIError).code).toBe('invalid_routing_target');
    expect((inHeader as APIError).param).toBe('x-conductor-routing');
    expect((inHeader as APIError).message).toContain('Routing target 1 in the x-conductor-routing header (anthropic/gpt-4o)');
    const body = { model: 'gpt-4o-mini', messages, conductor: policy } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const inBody = await client.chat.completions.create(body).catch((caught: unknown) => caught);
    expect((inBody as APIError).param).toBe('conductor.targets.0');
    expect((inBody as APIError).message).toContain('Routing target 1 (anthropic/gpt-4o)');
  });

  it('follows the account’s default routing policy when the request names none', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'pro');
    await gateway.app.context.database.db
      .update(users)
      .set({ routingPolicy: JSON.parse(FALLBACK) })
      .where(eq(users.id, userId));
    invalidateAccountCache(userId);
    fake(fakes, 'openai').enqueue({ kind: 'status', status: 502 });
    const { data, response } = await sdk(gateway.origin, key).chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    expect(data.model).toBe('claude-3-5-haiku');
    expect(response.headers.get('x-conductor-route')).toBe('fallback (account); openai/gpt-4o-mini=502, anthropic/claude-3-5-haiku=ok');
  });
});
