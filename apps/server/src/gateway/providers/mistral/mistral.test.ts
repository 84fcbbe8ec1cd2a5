import { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { chatRequest, modelInfo, runStream, streamUntilError, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { errorFixture, fixtureJson, fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { ProviderStreamError } from '../common/stream-error.ts';
import { mistralAdapter } from './mistral.ts';

const credentials = { apiKey: 'mistral0123456789abcdef0123456789', baseUrl: 'https://api.mistral.ai/v1' };
const mapError = (name: string) => {
  const fixture = errorFixture('mistral', name);
  return mistralAdapter.mapError(fixture.status, fixture.body, fixture.headers, testContext);
};

describe('mistral adapter: request', () => {
  it('posts an OpenAI-shaped body with random_seed, max_tokens and no user', () => {
    const request = mistralAdapter.buildRequest(
      chatRequest({ seed: 11, max_completion_tokens: 99, user: 'u-1', stop: 'x', stream: true }),
      modelInfo('mistral-large'),
      credentials,
    );
    expect(request.url).toBe('https://api.mistral.ai/v1/chat/completions');
    expect(request.headers).toEqual({
      authorization: 'Bearer mistral0123456789abcdef0123456789',
      'content-type': 'application/json',
      accept: 'text/event-stream',
    });
    expect(JSON.parse(request.body)).toEqual({
      model: 'mistral-large-latest',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello!' },
      ],
      temperature: 1,
      max_tokens: 99,
      stop: 'x',
      random_seed: 11,
      stream: true,
    });
  });
});

describe('mistral adapter: response', () => {
  it('maps the documented response', () => {
    expect(mistralAdapter.parseResponse(fixtureJson('mistral', 'text-response.json'), 'mistral-small-latest', testContext)).toEqual({
      id: 'cmpl-e5cc70bb28c444948073e77776eb30ef',
      object: 'chat.completion',
      created: 1702256327,
      model: 'mistral-small-latest',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Bonjour! I am Mistral, an AI assistant. How can I help you today? Feel free to ask me anything.',
          },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 16, completion_tokens: 34, total_tokens: 50 },
    });
  });

  it('model_length means length', () => {
    const body = fixtureJson('mistral', 'text-response.json') as { choices: object[] };
    const completion = mistralAdapter.parseResponse(
      { ...body, choices: [{ ...body.choices[0], finish_reason: 'model_length' }] },
      'mistral-small-latest',
      testContext,
    );
    expect(completion.choices[0]?.finish_reason).toBe('length');
  });

  it('finish_reason error is a retryable upstream failure, not a complete answer', () => {
    const body = fixtureJson('mistral', 'text-response.json') as { choices: object[] };
    const failed = { ...body, choices: [{ ...body.choices[0], finish_reason: 'error' }] };
    expect(() => mistralAdapter.parseResponse(failed, 'mistral-small-latest', testContext)).toThrow(ProviderStreamError);
    expect(() => mistralAdapter.parseResponse(failed, 'mistral-small-latest', testContext)).toThrow(
      expect.objectContaining({ status: 502, type: 'upstream_error', disposition: 'retryable', message: 'Mistral: the generation failed' }),
    );
  });
});

describe('mistral adapter: stream', () => {
  it('splits the last chunk (text + finish + usage) into content, finish and usage chunks', () => {
    const result = runStream(mistralAdapter, parseSseTranscript(fixtureText('mistral', 'stream.sse.txt')), 'mistral-small-latest');
    for (const chunk of result.chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    const base = {
      id: '9a1f0b4b2e5c4a0c9d6f7e8a1b2c3d4e',
      object: 'chat.completion.chunk',
      created: 1702256400,
      model: 'mistral-small-latest',
    };
    expect(result.done).toBe(true);
    expect(result.chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Bonjour' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '!' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 16, completion_tokens: 3, total_tokens: 19 } },
    ]);
  });
});

describe('mistral adapter: stream with finish_reason error', () => {
  const events = () => parseSseTranscript(fixtureText('mistral', 'stream-finish-error.sse.txt'));

  it('raises a retryable upstream failure instead of a stop chunk', () => {
    const { chunks, error } = streamUntilError(mistralAdapter, events(), 'mistral-small-latest');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(['', 'Bon']);
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason)).toBe(false);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(error).toMatchObject({
      status: 502,
      type: 'upstream_error',
      disposition: 'retryable',
      message: 'Mistral: the generation failed',
    });
  });

  it('still raises once the model’s stream shapes are learnt (the recurring-event fast path)', () => {
    runStream(mistralAdapter, parseSseTranscript(fixtureText('mistral', 'stream.sse.txt')), 'mistral-small-latest');
    for (let round = 0; round < 3; round += 1) {
      expect(streamUntilError(mistralAdapter, events(), 'mistral-small-latest').error).toMatchObject({
        status: 502,
        disposition: 'retryable',
      });
    }
  });
});

describe('mistral adapter: errors', () => {
  it('401 is terminal authentication', () => {
    expect(mapError('error-401.json')).toMatchObject({ status: 401, type: 'authentication_error', disposition: 'terminal' });
  });

  it('422 validation reports become a readable terminal 400', () => {
    expect(mapError('error-422.json')).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: 'Mistral: body.messages: Field required',
    });
  });

  it('Mistral’s own top-level codes (numbers of its own) are not relayed', () => {
    const body = { object: 'error', message: 'Invalid request', type: 'invalid_request_error', param: null, code: '3051' };
    expect(mistralAdapter.mapError(400, body, {})).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: 'Mistral: Invalid request',
    });
  });

  it('404 invalid model falls back', () => {
    expect(mapError('error-404.json')).toMatchObject({
      status: 404,
      disposition: 'fallback',
      message: 'Mistral: Invalid model: mistral-huge-latest',
    });
  });

  it('429 is retryable after Retry-After', () => {
    expect(mapError('rate-limit.json')).toEqual({
      status: 429,
      type: 'rate_limit_error',
      disposition: 'retryable',
      retryAfterMs: 1000,
      message: 'Mistral: Requests rate limit exceeded',
    });
  });

  it('503 capacity exceeded is retryable', () => {
    expect(mapError('error-503.json')).toMatchObject({ status: 503, disposition: 'retryable' });
  });
});
