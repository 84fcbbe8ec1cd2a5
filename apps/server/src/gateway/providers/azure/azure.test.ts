import { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { chatRequest, modelInfo, runStream, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { errorFixture, fixtureJson, fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { azureAdapter } from './azure.ts';

const credentials = { apiKey: '0123456789abcdef0123456789abcdef', baseUrl: 'https://contoso.openai.azure.com', apiVersion: '2024-10-21' };
const mapError = (name: string) => {
  const fixture = errorFixture('azure', name);
  return azureAdapter.mapError(fixture.status, fixture.body, fixture.headers, testContext);
};

describe('azure adapter: request', () => {
  it('posts to the deployment URL with api-version and the api-key header, without a model in the body', () => {
    const request = azureAdapter.buildRequest(
      chatRequest({
        max_tokens: 64,
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: 'Hello!' },
        ],
      }),
      modelInfo('azure-gpt-4o-mini'),
      credentials,
    );
    expect(request.url).toBe('https://contoso.openai.azure.com/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21');
    expect(request.headers).toEqual({
      'api-key': '0123456789abcdef0123456789abcdef',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(request.headers).not.toHaveProperty('authorization');
    expect(JSON.parse(request.body)).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello!' },
      ],
      temperature: 1,
      max_tokens: 64,
      stream: false,
    });
  });

  it('defaults the api-version and asks for stream usage', () => {
    const request = azureAdapter.buildRequest(chatRequest({ stream: true }), modelInfo('azure-gpt-4o'), {
      apiKey: 'k',
      baseUrl: 'https://contoso.openai.azure.com',
    });
    expect(request.url).toBe('https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    expect(JSON.parse(request.body)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });
});

describe('azure adapter: response', () => {
  it('maps the documented response (content filter annotations ignored)', () => {
    expect(azureAdapter.parseResponse(fixtureJson('azure', 'text-response.json'), 'azure-gpt-4o', testContext)).toEqual({
      id: 'chatcmpl-AJx7vvTSfq1JpkLFBrSRXr8Tqh9rm',
      object: 'chat.completion',
      created: 1729286848,
      model: 'azure-gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I assist you today?' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 },
    });
  });
});

describe('azure adapter: stream', () => {
  it('skips the leading prompt-filter chunk and keeps the real id and timestamp', () => {
    const result = runStream(azureAdapter, parseSseTranscript(fixtureText('azure', 'stream.sse.txt')), 'azure-gpt-4o');
    for (const chunk of result.chunks) expect(ChatCompletionChunk.parse(chunk)).toEqual(chunk);
    const base = {
      id: 'chatcmpl-AJx7xS5e2dP6Qh0d3VwZzrLJ1Yk8m',
      object: 'chat.completion.chunk',
      created: 1729286850,
      model: 'azure-gpt-4o',
    };
    expect(result.done).toBe(true);
    expect(result.chunks).toEqual([
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: ' from Azure.' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 } },
    ]);
  });
});

describe('azure adapter: errors', () => {
  it('401 is terminal authentication', () => {
    expect(mapError('error-401.json')).toMatchObject({ status: 401, type: 'authentication_error', disposition: 'terminal' });
  });

  it('404 DeploymentNotFound falls back', () => {
    expect(mapError('error-404.json')).toMatchObject({ status: 404, type: 'not_found_error', disposition: 'fallback' });
    expect(mapError('error-404.json').message).toContain('The API deployment for this resource does not exist');
  });

  it('400 content filter is terminal and keeps Azure’s code and param', () => {
    expect(mapError('error-400.json')).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      disposition: 'terminal',
      code: 'content_filter',
      param: 'prompt',
    });
  });

  it('the codes of a refused key or a missing deployment are not relayed', () => {
    expect(mapError('error-401.json')).not.toHaveProperty('code');
    expect(mapError('error-404.json')).not.toHaveProperty('code');
  });

  it('429 prefers retry-after-ms over retry-after', () => {
    expect(mapError('rate-limit.json')).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      disposition: 'retryable',
      retryAfterMs: 5500,
    });
  });

  it('500 is retryable', () => {
    expect(mapError('error-500.json')).toMatchObject({ status: 502, disposition: 'retryable' });
  });
});
