import { ChatCompletion, ChatCompletionChunk } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { chatRequest, modelInfo, runStream, streamUntilError, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { errorFixture, fixtureJson, fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { ProviderProtocolError, ProviderStreamError } from '../common/stream-error.ts';
import { openaiAdapter } from './openai.ts';

const credentials = { apiKey: 'sk-test-openai-key', baseUrl: 'https://api.openai.com/v1' };
const mapError = (name: string) => {
  const fixture = errorFixture('openai', name);
  return openaiAdapter.mapError(fixture.status, fixture.body, fixture.headers, testContext);
};

describe('openai adapter: request', () => {
  it('posts the chat body to /chat/completions with a Bearer key', () => {
    const request = openaiAdapter.buildRequest(
      chatRequest({ temperature: 0.2, max_tokens: 50, top_p: 0.9, stop: ['\n\n'], seed: 7, user: 'user-1' }),
      modelInfo('gpt-4o-mini'),
      credentials,
    );
    expect(request.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(request.method).toBe('POST');
    expect(request.headers).toEqual({
      authorization: 'Bearer sk-test-openai-key',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(request.body)).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello!' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      stop: ['\n\n'],
      seed: 7,
      user: 'user-1',
      stream: false,
    });
  });

  it('asks for stream usage when streaming and never forwards Conductor extensions or unknown members', () => {
    const request = openaiAdapter.buildRequest(
      chatRequest({
        stream: true,
        conductor: { strategy: 'fallback' },
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'tool', content: 'result' },
        ],
        ...({ logit_bias: { '50256': -100 } } as object),
      }),
      modelInfo('gpt-4o'),
      credentials,
    );
    expect(request.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(request.body)).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'user', content: 'result' },
      ],
      temperature: 1,
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('openai adapter: response', () => {
  it('maps the documented chat completion under the public model name', () => {
    const completion = openaiAdapter.parseResponse(fixtureJson('openai', 'text-response.json'), 'gpt-4o', testContext);
    expect(ChatCompletion.parse(completion)).toEqual(completion);
    expect(completion).toEqual({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'chat.completion',
      created: 1741569952,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I assist you today?' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
    });
  });

  it('refuses a body that is not a chat completion', () => {
    expect(() => openaiAdapter.parseResponse({ object: 'list', data: [] }, 'gpt-4o', testContext)).toThrow(ProviderProtocolError);
  });
});

describe('openai adapter: stream', () => {
  it('maps the documented stream: role first, content deltas, finish, usage, [DONE]', () => {
    const result = runStream(openaiAdapter, parseSseTranscript(fixtureText('openai', 'stream.sse.txt')), 'gpt-4o');
    for (const chunk of result.chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    expect(result.done).toBe(true);
    expect(result.text).toBe('Hello! How can I help?');
    expect(result.usage).toEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
    const base = { id: 'chatcmpl-AzgZvIzsXkGvp0YnzVQ0xMRfWa9BV', object: 'chat.completion.chunk', created: 1739286823, model: 'gpt-4o' };
    expect(result.chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '!' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: ' How can I help?' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 } },
    ]);
  });

  it('raises an in-stream error event as a retryable upstream error after the chunks before it', () => {
    const { chunks, error } = streamUntilError(openaiAdapter, parseSseTranscript(fixtureText('openai', 'stream-error.sse.txt')), 'gpt-4o');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([{ role: 'assistant', content: '' }, { content: 'Hel' }]);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ status: 502, type: 'upstream_error', disposition: 'retryable' });
  });

  it('refuses a stream event that is not JSON', () => {
    const parser = openaiAdapter.createStreamParser('gpt-4o', testContext);
    expect(() => parser.push({ event: undefined, data: '<html>' })).toThrow(ProviderProtocolError);
  });
});

describe('openai adapter: errors', () => {
  it('401 is terminal and never echoes the (masked) key', () => {
    const error = mapError('error-401.json');
    expect(error).toEqual({
      status: 401,
      type: 'authentication_error',
      disposition: 'terminal',
      message: 'OpenAI rejected the provider API key (HTTP 401).',
    });
  });

  it('400 is a terminal invalid request carrying the upstream message, code and param', () => {
    expect(mapError('error-400.json')).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message:
        "OpenAI: This model's maximum context length is 128000 tokens. However, your messages resulted in 130542 tokens. Please reduce the length of the messages.",
      code: 'context_length_exceeded',
      param: 'messages',
    });
  });

  it('a param that is not a string is ignored, not a reason to lose the message or code', () => {
    const body = { error: { message: "Invalid value for 'temperature'.", type: 'invalid_request_error', param: 7, code: 'invalid_value' } };
    expect(openaiAdapter.mapError(400, body, {})).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: "OpenAI: Invalid value for 'temperature'.",
      code: 'invalid_value',
    });
  });

  it('a numeric code or a type alone is not relayed as a code', () => {
    expect(openaiAdapter.mapError(400, { error: { message: 'bad', type: 'invalid_request_error', code: 400 } }, {})).not.toHaveProperty(
      'code',
    );
    expect(openaiAdapter.mapError(400, { error: { message: 'bad', type: 'invalid_request_error' } }, {})).not.toHaveProperty('code');
  });

  it('404 (unknown model) lets the router fall back, with the gateway’s code', () => {
    expect(mapError('error-404.json')).toMatchObject({ status: 404, type: 'not_found_error', disposition: 'fallback' });
    expect(mapError('error-404.json')).not.toHaveProperty('code');
  });

  it('429 rate limit is retryable after Retry-After', () => {
    expect(mapError('rate-limit.json')).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      disposition: 'retryable',
      retryAfterMs: 2000,
    });
  });

  it('429 without Retry-After uses the reset of the exhausted budget', () => {
    const fixture = errorFixture('openai', 'rate-limit.json');
    const { 'retry-after': _dropped, ...headers } = fixture.headers;
    expect(openaiAdapter.mapError(429, fixture.body, headers).retryAfterMs).toBe(1200);
  });

  it('Retry-After as an HTTP-date is measured from the response Date header', () => {
    const fixture = errorFixture('openai', 'rate-limit.json');
    const headers = { 'Retry-After': 'Wed, 21 Oct 2015 07:28:30 GMT', Date: 'Wed, 21 Oct 2015 07:28:00 GMT' };
    expect(openaiAdapter.mapError(429, fixture.body, headers).retryAfterMs).toBe(30_000);
  });

  it('Retry-After as an HTTP-date without a Date header uses the context clock', () => {
    const at = new Date(testContext.now() + 5000).toUTCString();
    expect(openaiAdapter.mapError(503, '', { 'retry-after': at }, testContext).retryAfterMs).toBe(5000);
  });

  it('exhausted quota (429 insufficient_quota) falls back instead of retrying', () => {
    expect(mapError('insufficient-quota.json')).toMatchObject({ status: 429, type: 'insufficient_quota', disposition: 'fallback' });
  });

  it('500 is retryable and answered as a bad gateway', () => {
    expect(mapError('error-500.json')).toMatchObject({ status: 502, type: 'upstream_error', disposition: 'retryable' });
  });

  it('a non-JSON error body (a proxy page) still maps by status', () => {
    const error = openaiAdapter.mapError(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {});
    expect(error).toMatchObject({ status: 502, disposition: 'retryable' });
    expect(error.message).toBe('OpenAI: 502 Bad Gateway');
  });
});
