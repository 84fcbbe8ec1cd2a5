import type { ChatCompletionChunk } from '@conductor/shared/openai/chat';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkSequence, sseData } from '../common/chunks.ts';
import type { AdapterContext, StreamStep } from '../types.ts';
import { createOpenAiStreamParser, type StreamShapes } from './create-adapter.ts';

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

describe('stream chunks: SSE text', () => {
  it('is exactly JSON.stringify of the chunk, for any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string(),
        fc.string(),
        fc.nat(),
        fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter'),
        (text, id, model, created, reason) => {
          const sequence = new ChunkSequence(model, () => id, created);
          // The role chunk, the content and the finish chunk all carry their own SSE text.
          const chunks = [...sequence.content(text), ...sequence.content(text), ...sequence.finish(reason)];
          for (const chunk of chunks) expect(sseData(chunk)).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
          expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
          expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe(reason);
        },
      ),
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

describe('OpenAI-compatible stream: shapes learnt from earlier streams', () => {
  /** One upstream stream: role, content, finish, usage, in the member order OpenAI sends. */
  const stream = (options: {
    id: string;
    created: number;
    texts: string[];
    finish: string;
    extra: Record<string, unknown>;
    usage?: Record<string, unknown>;
  }) => {
    const { id, created, extra } = options;
    const usage = options.usage ?? { prompt_tokens: 5, completion_tokens: options.texts.length, total_tokens: 5 + options.texts.length };
    const event = (body: Record<string, unknown>) =>
      JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'gpt-4o-2024-08-06', ...extra, ...body });
    return [
      event({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
      ...options.texts.map((text) => event({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })),
      event({ choices: [{ index: 0, delta: {}, finish_reason: options.finish }] }),
      event({ choices: [], usage }),
      '[DONE]',
    ];
  };
  /** What a parser makes of a stream: each step's chunks as SSE text, and whether it ended. */
  const read = (parser: ReturnType<typeof createOpenAiStreamParser>, events: string[]) =>
    events.map((data) => {
      const step = parser.push({ event: undefined, data });
      return { sse: step.chunks.map(sseData), done: step.done, usage: step.usage };
    });
  const streams = fc.array(
    fc.record({
      id: fc.oneof(fc.constant('chatcmpl-1'), fc.string({ unit: 'binary', maxLength: 12 })),
      created: fc.oneof(fc.constant(1_732_000_001), fc.nat(), fc.constantFrom(0, 1, 2, 10)),
      texts: fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 6 }),
      finish: fc.constantFrom('stop', 'length', 'content_filter'),
      // Members that repeat the id or created elsewhere in the event, which the shapes must not take for them.
      extra: fc.oneof(
        fc.constant({}),
        fc.constant({ system_fingerprint: 'fp_1' }),
        fc.record({ system_fingerprint: fc.string({ maxLength: 6 }) }),
        fc.constant({ x: { id: 'chatcmpl-1', created: 1_732_000_001 } }),
        fc.constant({ note: '"id":"chatcmpl-1","created":1732000001' }),
      ),
      // Usage blocks as providers send them, with counts that change from stream to stream.
      usage: fc.oneof(
        fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat(), total_tokens: fc.nat() }),
        fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat() }),
        fc.record({
          prompt_tokens: fc.constantFrom(0, 1, 2, 9, 10, 11, 100),
          completion_tokens: fc.constantFrom(0, 1, 2, 9, 10, 11, 100),
          total_tokens: fc.constantFrom(0, 1, 2, 9, 10, 11, 100),
          prompt_tokens_details: fc.constant({ cached_tokens: 0 }),
        }),
        fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat(), nested: fc.constant({ prompt_tokens: 3 }) }),
      ),
    }),
    { minLength: 1, maxLength: 5 },
  );

  it('reads every stream as a parser that learnt nothing before does', () => {
    fc.assert(
      fc.property(streams, (upstreams) => {
        const shapes: StreamShapes = { events: [] };
        for (const upstream of upstreams) {
          const events = stream(upstream);
          const fresh = read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context), events);
          const learnt = read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), events);
          expect(learnt).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads the role, finish and usage events and the content of later streams without parsing them', () => {
    const shapes: StreamShapes = { events: [] };
    const first = { id: 'chatcmpl-1', created: 1_732_000_001, texts: ['Hello', ' world'], finish: 'stop', extra: {} };
    read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), stream(first));
    expect(shapes.content).toBeDefined();
    expect(shapes.events).toHaveLength(3);
    const parse = JSON.parse;
    let parses = 0;
    JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
      parses += 1;
      return parse(...args);
    }) as typeof JSON.parse;
    try {
      const later = read(
        createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes),
        stream({ ...first, id: 'chatcmpl-2', created: 1_732_000_099, texts: ['Other', ' text', ' here.'] }),
      );
      expect(parses).toBe(0);
      expect(later.find((step) => step.usage)?.usage).toEqual({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
      expect(later.flatMap((step) => step.sse).join('')).toContain('"id":"chatcmpl-2"');
      expect(later.flatMap((step) => step.sse).join('')).toContain('"content":" here."');
    } finally {
      JSON.parse = parse;
    }
  });

  it('is not fooled by the id or created written elsewhere while the chunk’s own are escaped or spaced', () => {
    // The top-level id is written with an escape and created with a space, so the only plain
    // `"id":"c1"` and `"created":7` are a nested member's: the probe refuses that shape.
    const event = (id: string, created: number, body: string) =>
      `{"x":{"id":"${id}","created":${created}},"id":"\\u0063${id.slice(1)}","created": ${created},"object":"chat.completion.chunk",${body}}`;
    const role = (id: string, created: number) =>
      event(id, created, '"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]');
    const finish = (id: string, created: number) => event(id, created, '"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]');
    const shapes: StreamShapes = { events: [] };
    const parse = (events: string[]) => read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), events);
    parse([role('c1', 7), finish('c1', 7)]);
    expect(shapes.events).toHaveLength(0);
    // A later stream whose nested member differs from its own id reads its own id.
    const later = parse([
      `{"x":{"id":"c1","created":7},"id":"c2","created":8,"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
    ]);
    expect(later[0]!.sse.join('')).toContain('"id":"c2"');
  });

  it('is not fooled by a usage count written elsewhere while the chunk’s own is spaced', () => {
    const usageEvent = (prompt: number, decoy: number) =>
      `{"id":"u","object":"chat.completion.chunk","created":3,"x":{"prompt_tokens":${decoy}},"choices":[],"usage":{"prompt_tokens": ${prompt},"completion_tokens":2}}`;
    const shapes: StreamShapes = { events: [] };
    const parse = (events: string[]) => read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), events);
    parse([usageEvent(5, 5)]);
    // The probe put another count in the decoy and read the chunk's own back: no shape.
    expect(shapes.events).toHaveLength(0);
    expect(parse([usageEvent(9, 5)])[0]!.usage).toEqual({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
  });

  it('relearns when a later stream has other members', () => {
    const shapes: StreamShapes = { events: [] };
    const first = { id: 'a', created: 5, texts: ['Hi'], finish: 'stop', extra: {} };
    read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), stream(first));
    const other = stream({ ...first, id: 'b', extra: { service_tier: 'default' } });
    const learnt = read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), other);
    expect(learnt).toEqual(read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context), other));
    expect(learnt.flatMap((step) => step.sse).join('')).toContain('"content":"Hi"');
  });
});

describe('OpenAI-compatible stream: an upstream that changes', () => {
  it('replaces the oldest learnt shapes once every slot is taken, and keeps reading correctly', () => {
    const shapes: StreamShapes = { events: [] };
    const finish = (fingerprint: string, id: string) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 7,
        system_fingerprint: fingerprint,
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      });
    const parse = (data: string) => createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes).push({ event: undefined, data });
    // Eight fingerprints fill the six slots; the newest deployment's shape is learnt again later.
    for (let index = 0; index < 8; index += 1) parse(finish(`fp_${index}`, `a${index}`));
    expect(shapes.events).toHaveLength(6);
    for (let index = 0; index < 200; index += 1) parse(finish('fp_new', `b${index}`));
    expect(shapes.events.some((known) => known.shape.parts.join('').includes('fp_new'))).toBe(true);
    const step = parse(finish('fp_new', 'last'));
    expect(sseData(step.chunks.at(-1)!)).toContain('"id":"last"');
  });
});
