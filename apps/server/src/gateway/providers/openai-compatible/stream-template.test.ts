import type { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkSequence, sseData } from '../common/chunks.ts';
import type { AdapterContext, StreamStep } from '../types.ts';
import { createOpenAiStreamParser } from './create-adapter.ts';

const context: AdapterContext = { now: () => 1_732_000_000_000, generateId: () => 'generated' };

/** The reading of a chunk as a client's JSON parser sees it on the wire. */
const wire = (chunk: ChatCompletionChunk) => JSON.parse(sseData(chunk).slice('data: '.length)) as ChatCompletionChunk;

/** Runs events through a fresh parser: every chunk's SSE text, and the texts clients read. */
function run(events: string[]) {
  const parser = createOpenAiStreamParser('OpenAI', 'gpt-4o', context);
  const steps: StreamStep[] = events.map((data) => parser.push({ event: undefined, data }));
  const chunks = steps.flatMap((step) => step.chunks);
  return {
    sse: chunks.map(sseData),
    objects: chunks,
    texts: chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).filter((text) => text !== ''),
  };
}

const event = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_732_000_001,
    model: 'gpt-4o-2024-08-06',
    system_fingerprint: 'fp_1',
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    ...extra,
  });

const ROLE = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_732_000_001,
  model: 'gpt-4o-2024-08-06',
  choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
});

describe('content chunks: SSE text', () => {
  it('is exactly JSON.stringify of the chunk, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), fc.string(), fc.nat(), (text, id, model, created) => {
        const sequence = new ChunkSequence(model, () => id, created);
        for (const chunk of sequence.content(text)) expect(sseData(chunk)).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
      }),
    );
  });
});

describe('OpenAI-compatible stream: content taken from the bytes around it', () => {
  it('reads every text of a stream as the upstream sent it, whatever it holds', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 12 }), (texts) => {
        const result = run([ROLE, ...texts.map((text) => event(text))]);
        expect(result.texts).toEqual(texts.filter((text) => text !== ''));
        for (const [index, chunk] of result.objects.entries()) {
          expect(result.sse[index]).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
          expect(wire(chunk)).toEqual({ ...chunk, choices: chunk.choices.map((choice) => ({ ...choice })) });
          expect(chunk).toMatchObject({ id: 'chatcmpl-1', created: 1_732_000_001, model: 'gpt-4o' });
        }
      }),
    );
  });

  it('falls back to a full parse for a chunk that differs in more than its text', () => {
    const result = run([
      ROLE,
      event('Hello'),
      event(' world'),
      event('!', { usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 } }),
      event(' "quoted"\n'),
      event('tail', { obfuscation: 'xyz' }),
    ]);
    expect(result.texts).toEqual(['Hello', ' world', '!', ' "quoted"\n', 'tail']);
    // The usage rode on a content chunk and still comes out as its own usage chunk.
    expect(result.objects.some((chunk) => chunk.usage?.total_tokens === 6)).toBe(true);
  });

  it('is not fooled by the text appearing elsewhere in the event, or written with escapes', () => {
    // The delta's text is written with an escape, so the plain literal is found in a decoy member first:
    // the probe refuses that template, and a later event with other decoy text reads the delta's.
    const decoy = (other: string, content: string) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","x":{"content":"${other}"},"choices":[{"index":0,"delta":{"content":${content}},"finish_reason":null}]}`;
    const result = run([decoy('Hi', '"\\u0048i"'), decoy('Yo', '"\\u0048i"'), decoy('Yo', '"Yo"')]);
    expect(result.texts).toEqual(['Hi', 'Hi', 'Yo']);
    const duplicate = (content: string) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${content},"content":"last"},"finish_reason":null}]}`;
    expect(run([duplicate('"a"'), duplicate('"b"')]).texts).toEqual(['last', 'last']);
  });

  it('still ends on [DONE], and still raises an in-stream error after the template is learnt', () => {
    const parser = createOpenAiStreamParser('OpenAI', 'gpt-4o', context);
    parser.push({ event: undefined, data: event('a') });
    expect(parser.push({ event: undefined, data: event('b') }).chunks).toHaveLength(1);
    expect(() => parser.push({ event: undefined, data: JSON.stringify({ error: { message: 'boom', type: 'server_error' } }) })).toThrow(
      /boom/,
    );
    expect(parser.push({ event: undefined, data: '[DONE]' }).done).toBe(true);
  });
});
