import { findModel, type ModelInfo } from '@conductor/shared';
import { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../gateway-error.ts';
import { contextLengthRefusal, sandboxAnswer, sandboxChunks, sandboxCompletion } from './sandbox.ts';

const request = (input: Record<string, unknown>) =>
  ChatCompletionRequest.parse({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Bonjour ✓ 你好' }], ...input });
const model = findModel('gemini-1.5-flash') as ModelInfo;
const identity = { id: 'chatcmpl-1', created: 1, model: 'gemini-1.5-flash' };

describe('sandbox provider', () => {
  it('answers deterministically, naming the model and quoting the caller, with real token counts', async () => {
    const first = await sandboxAnswer(request({}), model, undefined);
    const second = await sandboxAnswer(request({}), model, undefined);
    expect(first).toEqual(second);
    const text = sandboxCompletion(first, identity).choices[0]?.message.content ?? '';
    expect(text).toContain('gemini-1.5-flash (Google)');
    expect(text).toContain('Bonjour ✓ 你好');
    // o200k: "Hello" is one token; the prompt adds 3 per message, the role and 3 for priming.
    const hello = await sandboxAnswer(request({ messages: [{ role: 'user', content: 'Hello' }] }), model, undefined);
    expect(hello.usage.prompt_tokens).toBe(3 + 1 + 1 + 3);
    expect(first.usage.completion_tokens).toBe(first.usage.total_tokens - first.usage.prompt_tokens);
  });

  it('honours max_tokens (finish_reason length) and stop sequences', async () => {
    const cut = await sandboxAnswer(request({}), model, 5);
    expect(cut.usage.completion_tokens).toBe(5);
    expect(cut.finishReason).toBe('length');
    const stopped = await sandboxAnswer(request({ stop: ['simulated'] }), model, undefined);
    expect(stopped.pieces.join('')).not.toContain('simulated');
    expect(stopped.finishReason).toBe('stop');
  });

  it('streams the same text token by token, keeping multi-byte characters whole', async () => {
    const answer = await sandboxAnswer(request({}), model, undefined);
    const chunks = sandboxChunks(answer, identity, true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage).toEqual(answer.usage);
    const streamed = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(streamed).toBe(sandboxCompletion(answer, identity).choices[0]?.message.content);
    expect(streamed).not.toContain('\uFFFD');
  });
});

describe('sandbox context window', () => {
  const small = findModel('gpt-3.5-turbo') as ModelInfo;

  it('refuses a prompt and completion budget over the context length as OpenAI does', () => {
    const refusal = contextLengthRefusal(small, 100_008, 5);
    expect(refusal?.status).toBe(400);
    expect(refusal?.toEnvelope()).toEqual({
      error: {
        message:
          "This model's maximum context length is 16385 tokens. However, you requested 100013 tokens (100008 in the messages, 5 in the completion). Please reduce the length of the messages or completion.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });
    expect(contextLengthRefusal(small, 20_000, undefined)?.message).toBe(
      "This model's maximum context length is 16385 tokens. However, your messages resulted in 20000 tokens. Please reduce the length of the messages.",
    );
    // The completion budget alone can overflow it too.
    expect(contextLengthRefusal(small, 10, 16_376)?.code).toBe('context_length_exceeded');
  });

  it('serves a request that just fits', () => {
    expect(contextLengthRefusal(small, 16_380, 5)).toBeUndefined();
    expect(contextLengthRefusal(small, 16_385, undefined)).toBeUndefined();
  });

  it('counts the prompt with the real tokenizer and honours max_completion_tokens', async () => {
    // "word " is one token each: 2,000 of them plus framing is well under 16,385, 2,000 + 15,000 is over.
    const words = request({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'word '.repeat(2_000) }] });
    const served = await sandboxAnswer(words, small, 5);
    expect(served.usage.completion_tokens).toBe(5);
    const refused = await sandboxAnswer({ ...words, max_completion_tokens: 15_000 }, small, 15_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).message).toContain(`you requested ${served.usage.prompt_tokens + 15_000} tokens`);
  });
});
