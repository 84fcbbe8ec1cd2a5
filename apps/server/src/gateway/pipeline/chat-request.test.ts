import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.ts';
import { parseChatRequest } from './chat-request.ts';

const usual = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

function refusal(body: unknown): GatewayError {
  try {
    parseChatRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('parseChatRequest', () => {
  it('takes null for every optional member as the member left out, as the OpenAI API does', () => {
    const nulls = {
      temperature: null,
      top_p: null,
      max_tokens: null,
      max_completion_tokens: null,
      stream: null,
      stream_options: null,
      stop: null,
      presence_penalty: null,
      frequency_penalty: null,
      n: null,
      user: null,
      seed: null,
      conductor: null,
      tools: null,
      response_format: null,
      logprobs: null,
    };
    const request = parseChatRequest({ ...usual, ...nulls });
    expect(request.temperature).toBe(1);
    expect(request.stream).toBe(false);
    for (const name of ['top_p', 'max_tokens', 'max_completion_tokens', 'stream_options', 'stop', 'n', 'seed', 'conductor'] as const) {
      expect(request[name]).toBeUndefined();
    }
    // The known members come out absent; members outside the schema stay as sent (adapters copy only what they map).
    expect(JSON.parse(JSON.stringify(request))).toEqual({
      ...usual,
      temperature: 1,
      stream: false,
      tools: null,
      response_format: null,
      logprobs: null,
    });
  });

  it('still validates a member that is neither null nor absent', () => {
    const error = refusal({ ...usual, max_tokens: 0 });
    expect(error.status).toBe(400);
    expect(error.param).toBe('max_tokens');
  });

  it.each([
    ['tools', [{ type: 'function', function: { name: 'f' } }]],
    ['tool_choice', 'auto'],
    ['functions', [{ name: 'f' }]],
    ['parallel_tool_calls', false],
    ['audio', { voice: 'alloy', format: 'mp3' }],
    ['modalities', ['text', 'audio']],
    ['response_format', { type: 'json_object' }],
    ['response_format', { type: 'json_schema', json_schema: { name: 'x', schema: {} } }],
    ['logprobs', true],
    ['top_logprobs', 2],
    ['logit_bias', { '50256': -100 }],
    ['prediction', { type: 'content', content: 'x' }],
    ['web_search_options', {}],
  ])('refuses %s (%j) with 400 unsupported_parameter instead of dropping it', (name, value) => {
    const error = refusal({ ...usual, [name]: value });
    expect(error.status).toBe(400);
    expect(error.code).toBe('unsupported_parameter');
    expect(error.param).toBe(name);
    expect(error.message).toBe(`'${name}' is not supported by this gateway (tool-free text chat only).`);
  });

  it.each([
    ['response_format', { type: 'text' }],
    ['logprobs', false],
    ['modalities', ['text']],
    ['logit_bias', {}],
  ])('accepts %s with the value that asks for the default (%j)', (name, value) => {
    expect(parseChatRequest({ ...usual, [name]: value })).toMatchObject(usual);
  });
});
