import { findModel, PROVIDER_IDS, type ProviderId } from '@conductor/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/gateway/providers/registry.ts';
import type { UpstreamRequest } from '../../src/gateway/providers/types.ts';
import { chatRequest, runStream, testContext } from './adapter-testing.ts';
import { parseSseTranscript } from './fixtures.ts';
import { type FakeBehaviour, type FakeUpstream, startFakeUpstream } from './index.ts';

const MODEL_OF: Record<ProviderId, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku',
  google: 'gemini-1.5-flash',
  azure: 'azure-gpt-4o-mini',
  mistral: 'mistral-small-latest',
  cohere: 'command-r',
};

const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((upstream) => upstream.close()));
});

async function fake(provider: ProviderId, behaviours: FakeBehaviour[] = [], apiKey?: string): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ provider, behaviours, ...(apiKey ? { apiKey } : {}) });
  started.push(upstream);
  return upstream;
}

function modelInfoOf(provider: ProviderId) {
  return findModel(MODEL_OF[provider])!;
}

function upstreamRequest(upstream: FakeUpstream, stream: boolean, apiKey = 'test-key'): UpstreamRequest {
  const adapter = getAdapter(upstream.provider);
  return adapter.buildRequest(chatRequest({ stream }), modelInfoOf(upstream.provider), {
    apiKey,
    baseUrl: upstream.baseUrl,
    apiVersion: '2024-10-21',
  });
}

function send(request: UpstreamRequest, signal?: AbortSignal): Promise<Response> {
  return fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: signal ?? null });
}

describe.each(PROVIDER_IDS)('fake %s upstream', (provider) => {
  const adapter = getAdapter(provider);

  it('answers the adapter request with the documented JSON, which the adapter maps', async () => {
    const upstream = await fake(provider);
    const response = await send(upstreamRequest(upstream, false, 'byok-key-1'));
    expect(response.status).toBe(200);
    const completion = adapter.parseResponse(await response.json(), 'public-model', testContext);
    expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]).toMatchObject({
      method: 'POST',
      apiKey: 'byok-key-1',
      stream: false,
      behaviour: 'ok',
      closedEarly: false,
    });
  });

  it('streams the documented transcript as SSE, or the given text in the same shape', async () => {
    const upstream = await fake(provider, [{ kind: 'ok' }, { kind: 'ok', text: 'Answer from the backup target.' }]);
    const first = await send(upstreamRequest(upstream, true));
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    const documented = runStream(adapter, parseSseTranscript(await first.text()), 'public-model');
    expect(documented.done).toBe(true);
    expect(documented.text.length).toBeGreaterThan(0);
    const second = await send(upstreamRequest(upstream, true));
    const custom = runStream(adapter, parseSseTranscript(await second.text()), 'public-model');
    expect(custom.text).toBe('Answer from the backup target.');
    expect(custom.usage).toEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
    expect(upstream.requests.map((request) => request.stream)).toEqual([true, true]);
  });

  it('replays the rate-limit fixture with its retry hint', async () => {
    const upstream = await fake(provider, [{ kind: 'fixture', name: 'rate-limit.json' }]);
    const response = await send(upstreamRequest(upstream, false));
    expect(response.status).toBe(429);
    const headers = Object.fromEntries(response.headers.entries());
    const error = adapter.mapError(response.status, await response.json(), headers, testContext);
    expect(error).toMatchObject({ status: 429, disposition: 'retryable' });
    expect(error.retryAfterMs).toBeGreaterThan(0);
  });

  it('refuses a wrong key with the documented 401 when a key is expected', async () => {
    const upstream = await fake(provider, [], 'the-right-key');
    const response = await send(upstreamRequest(upstream, false, 'a-wrong-key'));
    expect(response.status).toBe(provider === 'google' ? 400 : 401);
    const error = adapter.mapError(response.status, await response.json(), {});
    expect(error).toMatchObject({ status: 401, type: 'authentication_error', disposition: 'terminal' });
  });
});

describe('fake upstream behaviours', () => {
  it('status: any code, body and headers; then the default behaviour', async () => {
    const upstream = await fake('openai', [{ kind: 'status', status: 503, body: 'busy', headers: { 'retry-after': '3' } }]);
    const first = await send(upstreamRequest(upstream, false));
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('3');
    expect(await first.text()).toBe('busy');
    expect((await send(upstreamRequest(upstream, false))).status).toBe(200);
  });

  it('setBehaviour changes every later answer; reset clears the record', async () => {
    const upstream = await fake('anthropic');
    upstream.setBehaviour({ kind: 'fixture', name: 'overloaded.json' });
    expect((await send(upstreamRequest(upstream, false))).status).toBe(529);
    expect((await send(upstreamRequest(upstream, false))).status).toBe(529);
    upstream.reset();
    expect(upstream.requests).toHaveLength(0);
  });

  it('reset destroys the connection without an answer', async () => {
    const upstream = await fake('mistral', [{ kind: 'reset' }]);
    await expect(send(upstreamRequest(upstream, false))).rejects.toThrow();
    expect(upstream.requests[0]?.closedEarly).toBe(true);
  });

  it('hang never answers, so the client times out', async () => {
    const upstream = await fake('cohere', [{ kind: 'hang' }]);
    await expect(send(upstreamRequest(upstream, false), AbortSignal.timeout(200))).rejects.toThrow();
  });

  it('delayMs holds the answer back', async () => {
    const upstream = await fake('google', [{ kind: 'ok', delayMs: 150 }]);
    const startedAt = performance.now();
    expect((await send(upstreamRequest(upstream, false))).status).toBe(200);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(140);
  });

  it('break-stream sends some events, then resets mid-stream', async () => {
    const upstream = await fake('openai', [{ kind: 'break-stream', afterEvents: 2, text: 'one two three four' }]);
    const response = await send(upstreamRequest(upstream, true));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received += decoder.decode(value);
        }
      })(),
    ).rejects.toThrow();
    const events = parseSseTranscript(received);
    expect(events).toHaveLength(2);
    expect(upstream.requests[0]?.closedEarly).toBe(true);
  });

  it('slow-stream paces the events', async () => {
    const upstream = await fake('azure', [{ kind: 'slow-stream', intervalMs: 40, text: 'a b' }]);
    const startedAt = performance.now();
    const response = await send(upstreamRequest(upstream, true));
    const result = runStream(getAdapter('azure'), parseSseTranscript(await response.text()), 'azure-gpt-4o-mini');
    expect(result.text).toBe('a b');
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(6 * 40 - 10);
  });

  it('records a client that goes away mid-stream', async () => {
    const upstream = await fake('anthropic', [{ kind: 'slow-stream', intervalMs: 100 }]);
    const controller = new AbortController();
    const response = await send(upstreamRequest(upstream, true), controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect.poll(() => upstream.requests[0]?.closedEarly, { timeout: 2000 }).toBe(true);
  });

  it('answers 404 for a path that is not the provider chat endpoint', async () => {
    const upstream = await fake('openai');
    const response = await fetch(`${upstream.baseUrl}/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(upstream.requests[0]?.behaviour).toBe('not-found');
  });
});
