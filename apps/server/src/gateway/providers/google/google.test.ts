import { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { chatRequest, modelInfo, runStream, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { errorFixture, fixtureJson, fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { ProviderStreamError } from '../common/stream-error.ts';
import { googleAdapter } from './google.ts';

const credentials = { apiKey: 'AIzaSyTestKey000000000000000000000000', baseUrl: 'https://generativelanguage.googleapis.com' };
const mapError = (name: string) => {
  const fixture = errorFixture('google', name);
  return googleAdapter.mapError(fixture.status, fixture.body, fixture.headers, testContext);
};

describe('google adapter: request', () => {
  it('posts generateContent with x-goog-api-key, systemInstruction and generationConfig', () => {
    const request = googleAdapter.buildRequest(
      chatRequest({
        temperature: 0.4,
        top_p: 0.95,
        max_completion_tokens: 256,
        stop: ['###'],
        seed: 3,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
        ],
      }),
      modelInfo('gemini-1.5-flash'),
      credentials,
    );
    expect(request.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent');
    expect(request.url).not.toContain('key=');
    expect(request.headers).toEqual({
      'x-goog-api-key': 'AIzaSyTestKey000000000000000000000000',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(request.body)).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello.' }] },
        { role: 'user', parts: [{ text: 'How are you?' }] },
      ],
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      generationConfig: { temperature: 0.4, topP: 0.95, maxOutputTokens: 256, stopSequences: ['###'], seed: 3 },
    });
  });

  it('streams through streamGenerateContent?alt=sse and maps the upstream model name (gemini-pro → gemini-1.0-pro)', () => {
    const request = googleAdapter.buildRequest(chatRequest({ stream: true }), modelInfo('gemini-pro'), credentials);
    expect(request.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-1.0-pro:streamGenerateContent?alt=sse');
    expect(request.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(request.body)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello!' }] }],
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      generationConfig: { temperature: 1 },
    });
  });
});

describe('google adapter: request with instructions only', () => {
  it('sends the instructions as the one user turn (Gemini refuses empty contents)', () => {
    const request = googleAdapter.buildRequest(
      chatRequest({
        messages: [
          { role: 'system', content: 'Write a haiku about rain.' },
          { role: 'developer', content: 'Use lowercase.' },
          { role: 'assistant', content: null },
        ],
      }),
      modelInfo('gemini-1.5-flash'),
      credentials,
    );
    const body = JSON.parse(request.body);
    expect(body).not.toHaveProperty('systemInstruction');
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Write a haiku about rain.' }, { text: 'Use lowercase.' }] }]);
  });
});

describe('google adapter: response', () => {
  it('maps the documented GenerateContentResponse', () => {
    expect(googleAdapter.parseResponse(fixtureJson('google', 'text-response.json'), 'gemini-1.5-flash', testContext)).toEqual({
      id: 'IZI2acSKMoWl0-kPmYj2yQc',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gemini-1.5-flash',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?\n' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 },
    });
  });

  it('a blocked prompt becomes an empty content_filter answer with a generated id', () => {
    expect(googleAdapter.parseResponse(fixtureJson('google', 'blocked-prompt.json'), 'gemini-1.5-flash', testContext)).toEqual({
      id: 'chatcmpl-test0001',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gemini-1.5-flash',
      choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }],
      usage: { prompt_tokens: 12, completion_tokens: 0, total_tokens: 12 },
    });
  });

  it('maps MAX_TOKENS and SAFETY finish reasons and counts thinking tokens as output', () => {
    const body = fixtureJson('google', 'text-response.json') as { candidates: { finishReason: string }[] };
    const withReason = (finishReason: string) => ({
      ...body,
      candidates: [{ ...body.candidates[0], finishReason }],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 49, thoughtsTokenCount: 2042, totalTokenCount: 2095 },
    });
    const length = googleAdapter.parseResponse(withReason('MAX_TOKENS'), 'gemini-1.5-pro', testContext);
    expect(length.choices[0]?.finish_reason).toBe('length');
    expect(length.usage).toEqual({ prompt_tokens: 4, completion_tokens: 2091, total_tokens: 2095 });
    expect(googleAdapter.parseResponse(withReason('SAFETY'), 'gemini-1.5-pro', testContext).choices[0]?.finish_reason).toBe(
      'content_filter',
    );
  });
});

describe('google adapter: finish reasons', () => {
  const body = fixtureJson('google', 'text-response.json') as { candidates: object[] };
  const finishOf = (finishReason: string) =>
    googleAdapter.parseResponse({ ...body, candidates: [{ ...body.candidates[0], finishReason }] }, 'gemini-1.5-flash', testContext)
      .choices[0]?.finish_reason;

  it.each([
    'SAFETY',
    'RECITATION',
    'BLOCKLIST',
    'PROHIBITED_CONTENT',
    'SPII',
    'IMAGE_SAFETY',
    'IMAGE_PROHIBITED_CONTENT',
    'IMAGE_RECITATION',
  ])('%s withheld content: content_filter', (reason) => {
    expect(finishOf(reason)).toBe('content_filter');
  });

  // This API declares no tools, so a tool-call ending has no tool_calls to go with it.
  it.each(['STOP', 'LANGUAGE', 'OTHER', 'MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'A_FUTURE_REASON'])(
    '%s: stop',
    (reason) => {
      expect(finishOf(reason)).toBe('stop');
    },
  );
});

describe('google adapter: stream', () => {
  it('maps the documented SSE stream and ends at the finishReason event', () => {
    const result = runStream(googleAdapter, parseSseTranscript(fixtureText('google', 'stream.sse.txt')), 'gemini-1.5-flash');
    for (const chunk of result.chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    const base = { id: 'kZ5Aaf2uHoWl0-kPmYj2yQc', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gemini-1.5-flash' };
    expect(result.done).toBe(true);
    expect(result.chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '! How can I' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: ' help you today?\n' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 } },
    ]);
  });

  it('an error object inside the stream raises', () => {
    const parser = googleAdapter.createStreamParser('gemini-1.5-flash', testContext);
    const data = JSON.stringify((errorFixture('google', 'error-503.json').body as object) ?? {});
    expect(() => parser.push({ event: undefined, data })).toThrow(ProviderStreamError);
  });
});

describe('google adapter: errors', () => {
  it('400 API_KEY_INVALID is an authentication failure, not a bad request', () => {
    expect(mapError('error-api-key.json')).toEqual({
      status: 401,
      type: 'authentication_error',
      disposition: 'terminal',
      message: 'Google rejected the provider API key (HTTP 401).',
    });
  });

  it('other 400s are terminal invalid requests, with the gateway’s code', () => {
    expect(mapError('error-400.json')).toMatchObject({ status: 400, type: 'invalid_request_error', disposition: 'terminal' });
    expect(mapError('error-400.json')).not.toHaveProperty('code');
  });

  it('an input over the context window is answered as OpenAI does: context_length_exceeded on messages', () => {
    expect(mapError('error-context-length.json')).toEqual({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      message: 'Google: The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
      code: 'context_length_exceeded',
      param: 'messages',
    });
  });

  it('400 FAILED_PRECONDITION (no free tier here and no billing) is the account’s billing: insufficient quota, next target', () => {
    expect(mapError('error-billing.json')).toEqual({
      status: 429,
      type: 'insufficient_quota',
      disposition: 'fallback',
      message: 'Google: Gemini API free tier is not available in your country. Please enable billing on your project in Google AI Studio.',
    });
    expect(mapError('error-location.json')).toMatchObject({ status: 429, type: 'insufficient_quota', disposition: 'fallback' });
    expect(mapError('error-location.json')).not.toHaveProperty('code');
  });

  it('404 falls back', () => {
    expect(mapError('error-404.json')).toMatchObject({ status: 404, disposition: 'fallback' });
  });

  it('429 RESOURCE_EXHAUSTED waits for the RetryInfo delay', () => {
    expect(mapError('rate-limit.json')).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      disposition: 'retryable',
      retryAfterMs: 37_000,
    });
  });

  it('503 UNAVAILABLE is retryable', () => {
    expect(mapError('error-503.json')).toEqual({
      status: 503,
      type: 'upstream_error',
      disposition: 'retryable',
      message: 'Google: The model is overloaded. Please try again later.',
    });
  });
});
