import { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { chatRequest, modelInfo, runStream, streamUntilError, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { errorFixture, fixtureJson, fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { ProviderStreamError } from '../common/stream-error.ts';
import { anthropicAdapter } from './anthropic.ts';

const credentials = { apiKey: 'sk-ant-test-key', baseUrl: 'https://api.anthropic.com' };
const mapError = (name: string) => {
  const fixture = errorFixture('anthropic', name);
  return anthropicAdapter.mapError(fixture.status, fixture.body, fixture.headers, testContext);
};

describe('anthropic adapter: request', () => {
  it('posts to /v1/messages with x-api-key and anthropic-version, system lifted out', () => {
    const request = anthropicAdapter.buildRequest(
      chatRequest({ temperature: 0.5, max_tokens: 300, top_p: 0.8, stop: 'END', user: 'user-42' }),
      modelInfo('claude-3-5-sonnet'),
      credentials,
    );
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers).toEqual({
      'x-api-key': 'sk-ant-test-key',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(request.body)).toEqual({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 300,
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello!' }] }],
      temperature: 0.5,
      top_p: 0.8,
      stop_sequences: ['END'],
      stream: false,
      metadata: { user_id: 'user-42' },
    });
  });

  it('defaults max_tokens, clamps temperature to 1, merges same-role turns and drops empty ones', () => {
    const request = anthropicAdapter.buildRequest(
      chatRequest({
        stream: true,
        temperature: 1.6,
        messages: [
          { role: 'system', content: 'A' },
          { role: 'developer', content: 'B' },
          { role: 'user', content: 'one' },
          { role: 'tool', content: 'two' },
          { role: 'assistant', content: null },
          { role: 'assistant', content: [{ type: 'text', text: 'three' }] },
          { role: 'user', content: 'four' },
        ],
      }),
      modelInfo('claude-3-5-haiku'),
      credentials,
    );
    expect(request.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(request.body)).toEqual({
      model: 'claude-3-5-haiku-20241022',
      max_tokens: 4096,
      system: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'three' }] },
        { role: 'user', content: [{ type: 'text', text: 'four' }] },
      ],
      temperature: 1,
      stream: true,
    });
  });
});

describe('anthropic adapter: request with instructions only', () => {
  it('sends the instructions as the one user turn (Anthropic refuses an empty messages list)', () => {
    const request = anthropicAdapter.buildRequest(
      chatRequest({
        messages: [
          { role: 'system', content: 'Write a haiku about rain.' },
          { role: 'developer', content: [{ type: 'text', text: 'Use lowercase.' }] },
          { role: 'user', content: '' },
        ],
      }),
      modelInfo('claude-3-5-sonnet'),
      credentials,
    );
    const body = JSON.parse(request.body);
    expect(body).not.toHaveProperty('system');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Write a haiku about rain.' },
          { type: 'text', text: 'Use lowercase.' },
        ],
      },
    ]);
  });
});

describe('anthropic adapter: response', () => {
  it('maps the documented message to a chat completion', () => {
    expect(anthropicAdapter.parseResponse(fixtureJson('anthropic', 'text-response.json'), 'claude-3-5-sonnet', testContext)).toEqual({
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      object: 'chat.completion',
      created: testContext.now() / 1000,
      model: 'claude-3-5-sonnet',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi! My name is Claude.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2095, completion_tokens: 503, total_tokens: 2598 },
    });
  });

  it('maps stop reasons and counts cached prompt tokens', () => {
    const body = {
      ...(fixtureJson('anthropic', 'text-response.json') as object),
      stop_reason: 'max_tokens',
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 },
    };
    const completion = anthropicAdapter.parseResponse(body, 'claude-3-5-sonnet', testContext);
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage).toEqual({ prompt_tokens: 1110, completion_tokens: 5, total_tokens: 1115 });
  });
});

describe('anthropic adapter: stop reasons', () => {
  const body = fixtureJson('anthropic', 'text-response.json') as object;
  const finishOf = (stop_reason: string) =>
    anthropicAdapter.parseResponse({ ...body, stop_reason }, 'claude-3-5-sonnet', testContext).choices[0]?.finish_reason;

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    ['a_future_reason', 'stop'],
  ])('%s → %s', (reason, expected) => {
    expect(finishOf(reason)).toBe(expected);
  });
});

describe('anthropic adapter: stream', () => {
  it('maps the documented event stream to OpenAI chunks with usage', () => {
    const result = runStream(anthropicAdapter, parseSseTranscript(fixtureText('anthropic', 'stream.sse.txt')), 'claude-3-5-sonnet');
    for (const chunk of result.chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    const base = {
      id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'claude-3-5-sonnet',
    };
    expect(result.done).toBe(true);
    expect(result.chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '!' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 } },
    ]);
    expect(result.usage).toEqual({ prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 });
  });

  it('an `error` event mid-stream raises a retryable overloaded error', () => {
    const { chunks, error } = streamUntilError(
      anthropicAdapter,
      parseSseTranscript(fixtureText('anthropic', 'stream-error.sse.txt')),
      'claude-3-5-sonnet',
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(['', 'Hel']);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({ status: 503, disposition: 'retryable', message: 'Anthropic: Overloaded' });
  });

  it('skips event types it does not know', () => {
    const parser = anthropicAdapter.createStreamParser('claude-3-5-sonnet', testContext);
    expect(parser.push({ event: 'future_event', data: '{"type":"future_event","x":1}' })).toEqual({ chunks: [], done: false });
  });
});

describe('anthropic adapter: errors', () => {
  it('401 is terminal authentication', () => {
    expect(mapError('error-401.json')).toEqual({
      status: 401,
      type: 'authentication_error',
      disposition: 'terminal',
      message: 'Anthropic rejected the provider API key (HTTP 401).',
    });
  });

  it('400 is terminal with the upstream message', () => {
    expect(mapError('error-400.json')).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: 'Anthropic: messages: text content blocks must be non-empty',
    });
  });

  it('a prompt over the context window is answered as OpenAI does: context_length_exceeded on messages', () => {
    expect(mapError('error-prompt-too-long.json')).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: 'Anthropic: prompt is too long: 219898 tokens > 200000 maximum',
      code: 'context_length_exceeded',
      param: 'messages',
    });
    const withOutput = {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'input length and `max_tokens` exceed context limit: 197626 + 8192 > 200000, decrease input length or `max_tokens` and try again',
      },
    };
    expect(anthropicAdapter.mapError(400, withOutput, {})).toMatchObject({ code: 'context_length_exceeded', param: 'messages' });
  });

  it('an output limit over the model’s maximum is not a context overflow', () => {
    const body = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens' },
    };
    expect(anthropicAdapter.mapError(400, body, {})).not.toHaveProperty('code');
  });

  it('a credit balance too low is the account’s billing, answered as a 402 is: insufficient quota, next target', () => {
    expect(mapError('error-credit-balance.json')).toEqual({
      status: 429,
      type: 'insufficient_quota',
      disposition: 'fallback',
      message:
        'Anthropic: Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    });
    expect(anthropicAdapter.mapError(402, { type: 'error', error: { type: 'billing_error', message: 'Billing issue' } }, {})).toMatchObject(
      {
        status: 429,
        type: 'insufficient_quota',
        disposition: 'fallback',
      },
    );
  });

  it('404 falls back', () => {
    expect(mapError('error-404.json')).toMatchObject({ status: 404, disposition: 'fallback' });
  });

  it('429 honours retry-after', () => {
    expect(mapError('rate-limit.json')).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      disposition: 'retryable',
      retryAfterMs: 17_000,
    });
  });

  it('429 without retry-after uses the earliest reset header against the Date header', () => {
    const fixture = errorFixture('anthropic', 'rate-limit.json');
    const { 'retry-after': _dropped, ...headers } = fixture.headers;
    expect(anthropicAdapter.mapError(429, fixture.body, headers).retryAfterMs).toBe(2000);
  });

  it('529 overloaded is retryable as a 503', () => {
    expect(mapError('overloaded.json')).toEqual({
      status: 503,
      type: 'upstream_error',
      disposition: 'retryable',
      message: 'Anthropic: Overloaded',
    });
  });

  it('500 is retryable', () => {
    expect(mapError('error-500.json')).toMatchObject({ status: 502, disposition: 'retryable' });
  });
});
