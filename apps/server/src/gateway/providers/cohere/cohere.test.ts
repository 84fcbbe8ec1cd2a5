import { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { chatRequest, modelInfo, runStream, streamUntilError, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { errorFixture, fixtureJson, fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { ProviderStreamError } from '../common/stream-error.ts';
import { cohereAdapter } from './cohere.ts';

const credentials = { apiKey: 'co-test-key', baseUrl: 'https://api.cohere.com' };
const mapError = (name: string) => {
  const fixture = errorFixture('cohere', name);
  return cohereAdapter.mapError(fixture.status, fixture.body, fixture.headers, testContext);
};

describe('cohere adapter: request', () => {
  it('posts to /v2/chat with a Bearer key and Cohere parameter names', () => {
    const request = cohereAdapter.buildRequest(
      chatRequest({
        temperature: 0.3,
        top_p: 0.75,
        max_tokens: 120,
        stop: ['\n'],
        seed: 5,
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is an LLM?' }] },
          { role: 'assistant', content: 'A model.' },
          { role: 'tool', content: 'data' },
        ],
      }),
      modelInfo('command-r'),
      credentials,
    );
    expect(request.url).toBe('https://api.cohere.com/v2/chat');
    expect(request.headers).toEqual({
      authorization: 'Bearer co-test-key',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(request.body)).toEqual({
      model: 'command-r',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is an LLM?' }] },
        { role: 'assistant', content: 'A model.' },
        { role: 'user', content: 'data' },
      ],
      temperature: 0.3,
      p: 0.75,
      max_tokens: 120,
      stop_sequences: ['\n'],
      seed: 5,
      stream: false,
    });
  });
});

describe('cohere adapter: request with instructions only', () => {
  it('sends the instructions as the one user message (Cohere needs a user message)', () => {
    const request = cohereAdapter.buildRequest(
      chatRequest({
        messages: [
          { role: 'system', content: 'Write a haiku about rain.' },
          { role: 'developer', content: [{ type: 'text', text: 'Use lowercase.' }] },
        ],
      }),
      modelInfo('command-r'),
      credentials,
    );
    expect(JSON.parse(request.body).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Write a haiku about rain.' },
          { type: 'text', text: 'Use lowercase.' },
        ],
      },
    ]);
  });

  it('keeps instructions as system messages once there is a turn', () => {
    const request = cohereAdapter.buildRequest(chatRequest(), modelInfo('command-r'), credentials);
    expect(JSON.parse(request.body).messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello!' },
    ]);
  });
});

describe('cohere adapter: response', () => {
  it('maps the documented response with billed units as usage', () => {
    expect(cohereAdapter.parseResponse(fixtureJson('cohere', 'text-response.json'), 'command-r', testContext)).toEqual({
      id: 'c14c80c3-18eb-4519-9460-6c92edd8cfb4',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'command-r',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content:
              'LLMs stand for Large Language Models, which are a type of neural network model specialized in processing and generating human language.',
          },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 24, total_tokens: 29 },
    });
  });

  it('MAX_TOKENS means length; ERROR is an upstream failure', () => {
    const body = fixtureJson('cohere', 'text-response.json') as object;
    expect(cohereAdapter.parseResponse({ ...body, finish_reason: 'MAX_TOKENS' }, 'command-r', testContext).choices[0]?.finish_reason).toBe(
      'length',
    );
    expect(() => cohereAdapter.parseResponse({ ...body, finish_reason: 'ERROR' }, 'command-r', testContext)).toThrow(ProviderStreamError);
  });
});

describe('cohere adapter: stream', () => {
  it('maps the documented v2 stream events', () => {
    const result = runStream(cohereAdapter, parseSseTranscript(fixtureText('cohere', 'stream.sse.txt')), 'command-r-plus');
    for (const chunk of result.chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    const base = {
      id: 'a8fc192e-4bb8-4e15-ae1f-a174e8b02ae8',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'command-r-plus',
    };
    expect(result.done).toBe(true);
    expect(result.chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Coca' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '-Cola' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: ' is a soft drink.' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28 } },
    ]);
  });

  it('a message-end with finish_reason ERROR raises a retryable error', () => {
    const events = parseSseTranscript(fixtureText('cohere', 'stream.sse.txt')).slice(0, 3);
    events.push({ event: 'message-end', data: '{"type":"message-end","delta":{"finish_reason":"ERROR","error":"generation failed"}}' });
    const { chunks, error } = streamUntilError(cohereAdapter, events, 'command-r');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(['', 'Coca']);
    expect(error).toMatchObject({ status: 502, disposition: 'retryable', message: 'Cohere: generation failed' });
  });

  it('skips tool and citation events', () => {
    const parser = cohereAdapter.createStreamParser('command-r', testContext);
    expect(parser.push({ event: 'tool-plan-delta', data: '{"type":"tool-plan-delta","delta":{"message":{"tool_plan":"x"}}}' })).toEqual({
      chunks: [],
      done: false,
    });
  });
});

describe('cohere adapter: errors', () => {
  it('401 is terminal authentication', () => {
    expect(mapError('error-401.json')).toMatchObject({ status: 401, type: 'authentication_error', disposition: 'terminal' });
  });

  it('400 is terminal with the message', () => {
    expect(mapError('error-400.json').message).toBe(
      'Cohere: too many tokens: max tokens must be less than or equal to 4096, the maximum output for this model - received 8192.',
    );
    // Too many output tokens asked for: not the prompt's length.
    expect(mapError('error-400.json')).not.toHaveProperty('code');
  });

  it('a prompt over the context window is answered as OpenAI does: context_length_exceeded on messages', () => {
    expect(mapError('error-context-length.json')).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      code: 'context_length_exceeded',
      param: 'messages',
    });
    const sizeLimit = {
      message:
        "too many tokens: size limit exceeded by 11326 tokens. Try using shorter or fewer inputs, or setting prompt_truncation='AUTO'.",
    };
    expect(cohereAdapter.mapError(400, sizeLimit, {})).toMatchObject({ code: 'context_length_exceeded', param: 'messages' });
  });

  it('402 billing limit falls back as insufficient quota', () => {
    expect(mapError('error-402.json')).toMatchObject({ status: 429, type: 'insufficient_quota', disposition: 'fallback' });
  });

  it('404 falls back', () => {
    expect(mapError('error-404.json')).toMatchObject({ status: 404, disposition: 'fallback' });
  });

  it('429 is retryable after Retry-After', () => {
    expect(mapError('rate-limit.json')).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      disposition: 'retryable',
      retryAfterMs: 60_000,
    });
  });

  it('500 is retryable', () => {
    expect(mapError('error-500.json')).toMatchObject({ status: 502, disposition: 'retryable' });
  });
});
