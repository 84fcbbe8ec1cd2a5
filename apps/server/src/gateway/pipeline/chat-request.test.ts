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
    for (const name of [
      'top_p',
      'max_tokens',
      'max_completion_tokens',
      'stream_options',
      'stop',
      'n',
      'seed',
      'response_format',
      'conductor',
    ] as const) {
      expect(request[name]).toBeUndefined();
    }
    // The known members come out absent; members outside the schema stay as sent (adapters copy only what they map).
    expect(JSON.parse(JSON.stringify(request))).toEqual({
      ...usual,
      temperature: 1,
      stream: false,
      tools: null,
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
    ['logprobs', true],
    ['top_logprobs', 2],
    ['logit_bias', { '50256': -100 }],
    ['prediction', { type: 'content', content: 'x' }],
    ['web_search_options', {}],
    ['store', true],
    ['service_tier', 'flex'],
    ['reasoning_effort', 'low'],
    ['verbosity', 'low'],
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
    ['store', false],
    ['service_tier', 'auto'],
    ['service_tier', 'default'],
    // Hints that change no answer: accepted, as OpenAI accepts them for every model.
    ['metadata', { team: 'search' }],
    ['prompt_cache_key', 'k'],
  ])('accepts %s with the value that asks for the default (%j)', (name, value) => {
    expect(parseChatRequest({ ...usual, [name]: value })).toMatchObject(usual);
  });

  it('refuses a conversation with tool calls in it instead of passing it on without them', () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
    const withCall = refusal({
      ...usual,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [call] },
      ],
    });
    expect([withCall.status, withCall.code, withCall.param]).toEqual([400, 'unsupported_parameter', 'messages.1.tool_calls']);
    expect(withCall.message).toBe("Messages with 'tool_calls' are not supported by this gateway (tool-free text chat only).");
    const legacyCall = refusal({
      ...usual,
      messages: [{ role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }, ...usual.messages],
    });
    expect(legacyCall.param).toBe('messages.0.function_call');
    const toolResult = refusal({
      ...usual,
      messages: [...usual.messages, { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' }],
    });
    expect([toolResult.code, toolResult.param]).toEqual(['unsupported_parameter', 'messages.1.role']);
    expect(toolResult.message).toBe(
      "Messages with role 'tool' (tool results) are not supported by this gateway (tool-free text chat only).",
    );
    // `tool_calls: null` or an empty list asks for nothing.
    const assistant = { role: 'assistant', content: 'Hello', tool_calls: null };
    expect(parseChatRequest({ ...usual, messages: [assistant, ...usual.messages] }).messages).toHaveLength(2);
    expect(parseChatRequest({ ...usual, messages: [{ ...assistant, tool_calls: [] }, ...usual.messages] }).messages).toHaveLength(2);
  });

  it('refuses empty content where OpenAI does: null outside an assistant turn, an empty part list anywhere', () => {
    const nullUser = refusal({ ...usual, messages: [{ role: 'user', content: null }] });
    expect([nullUser.status, nullUser.code, nullUser.param]).toEqual([400, 'invalid_request', 'messages.0.content']);
    expect(nullUser.message).toBe("Invalid body field 'messages.0.content': a user message needs content.");
    const emptyParts = refusal({ ...usual, messages: [...usual.messages, { role: 'assistant', content: [] }] });
    expect(emptyParts.param).toBe('messages.1.content');
    expect(emptyParts.message).toBe("Invalid body field 'messages.1.content': a content array must hold at least one part.");
    // An assistant turn without content is part of a conversation as OpenAI takes it.
    expect(parseChatRequest({ ...usual, messages: [{ role: 'assistant', content: null }, ...usual.messages] }).messages).toHaveLength(2);
  });

  it('refuses stream_options on a request that does not stream, as OpenAI does', () => {
    const error = refusal({ ...usual, stream_options: { include_usage: true } });
    expect([error.status, error.param, error.message]).toEqual([
      400,
      'stream_options',
      "'stream_options' is only allowed when 'stream' is true.",
    ]);
    expect(parseChatRequest({ ...usual, stream: true, stream_options: { include_usage: true } }).stream_options).toEqual({
      include_usage: true,
    });
  });

  it.each([
    { type: 'json_object' },
    {
      type: 'json_schema',
      json_schema: { name: 'person', schema: { type: 'object', properties: { name: { type: 'string' } } }, strict: true },
    },
    { type: 'json_schema', json_schema: { name: 'any-json_1' } },
  ])('accepts response_format %j', (format) => {
    expect(parseChatRequest({ ...usual, response_format: format }).response_format).toEqual(format);
  });

  it.each([
    [{ type: 'xml' }, 'response_format.type', "response_format.type must be 'text', 'json_object' or 'json_schema'"],
    ['json', 'response_format', "response_format.type must be 'text', 'json_object' or 'json_schema'"],
    [
      { type: 'json_schema' },
      'response_format.json_schema',
      "json_schema (an object with a name and a schema) is required when type is 'json_schema'",
    ],
    [
      { type: 'json_schema', json_schema: { name: 'has space', schema: {} } },
      'response_format.json_schema.name',
      'json_schema.name must be 1 to 64 letters, digits, underscores or dashes',
    ],
    [{ type: 'json_schema', json_schema: { name: 'x', schema: [] } }, 'response_format.json_schema.schema', undefined],
    [{ type: 'json_schema', json_schema: { name: 'x', strict: 'yes' } }, 'response_format.json_schema.strict', undefined],
  ])('refuses response_format %j with 400 naming %s', (format, param, message) => {
    const error = refusal({ ...usual, response_format: format });
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe(param);
    if (message) expect(error.message).toContain(message);
  });
});
