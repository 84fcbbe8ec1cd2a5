import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompletionShapes } from './completion-shapes.ts';
import { createOpenAiCompatibleAdapter } from './create-adapter.ts';

const ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_732_000_001,
  model: 'gpt-4o-2024-08-06',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
};

const answers = fc.array(
  fc.record({
    id: fc.oneof(fc.constant('chatcmpl-1'), fc.string({ unit: 'binary', maxLength: 12 })),
    created: fc.oneof(fc.constant(1_732_000_001), fc.nat(), fc.constantFrom(0, 1, 2)),
    content: fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', 'a "quoted" \\ text\n', 'Hello there.')),
    finish: fc.constantFrom('stop', 'length'),
    usage: fc.oneof(
      fc.record({ prompt_tokens: fc.nat(), completion_tokens: fc.nat(), total_tokens: fc.nat() }),
      fc.record({ prompt_tokens: fc.constantFrom(0, 1, 12), completion_tokens: fc.constantFrom(0, 1, 3) }),
    ),
    // Members that repeat a value elsewhere, which the shapes must not take for the answer's own.
    extra: fc.oneof(
      fc.constant({}),
      fc.constant({ system_fingerprint: 'fp_1' }),
      fc.constant({ x: { id: 'chatcmpl-1', created: 1_732_000_001, content: 'Hello there.', prompt_tokens: 12 } }),
    ),
  }),
  { minLength: 1, maxLength: 6 },
);

const text = (answer: { id: string; created: number; content: string; finish: string; usage: object; extra: object }) =>
  JSON.stringify({
    ...ANSWER,
    id: answer.id,
    created: answer.created,
    ...answer.extra,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: answer.finish }],
    usage: answer.usage,
  });

const context = { now: () => 1_732_000_000_000, generateId: () => 'generated' };

describe('OpenAI-compatible JSON answers: shapes learnt from earlier answers', () => {
  it('reads every answer as the full parse does, whatever came before', () => {
    fc.assert(
      fc.property(answers, (sequence) => {
        const adapter = createOpenAiCompatibleAdapter({
          id: 'openai',
          name: 'OpenAI',
          defaultBaseUrl: 'https://api.openai.com/v1',
          allowedHostSuffixes: ['api.openai.com'],
          body: {
            developerRole: true,
            modelInBody: true,
            streamUsageOption: true,
            seedField: 'seed',
            userField: true,
            maxCompletionTokens: true,
          },
          url: (credentials) => `${credentials.baseUrl}/chat/completions`,
          authHeaders: () => ({}),
        });
        for (const answer of sequence) {
          const body = text(answer);
          const full = adapter.parseResponse(JSON.parse(body), 'gpt-4o', context);
          const read = adapter.readResponse?.(body, 'gpt-4o', context);
          if (read) expect(read).toEqual(full);
          else adapter.learnResponse?.(body, JSON.parse(body), 'gpt-4o');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a later answer of the same shape from its bytes, escapes and all', () => {
    const shapes = new CompletionShapes();
    const first = JSON.stringify(ANSWER);
    expect(shapes.read('gpt-4o', first)).toBeUndefined();
    shapes.learn('gpt-4o', first, JSON.parse(first));
    const later = JSON.stringify({
      ...ANSWER,
      id: 'chatcmpl-2',
      created: 1_732_000_099,
      choices: [{ ...ANSWER.choices[0], message: { role: 'assistant', content: 'Line one\nsaid "hi" \\ é 😀' } }],
      usage: { prompt_tokens: 7, completion_tokens: 40, total_tokens: 47 },
    });
    const body = shapes.read('gpt-4o', later);
    expect(body).toEqual(JSON.parse(later));
    // Another model, or bytes that are not JSON where the text goes, are not read.
    expect(shapes.read('other', later)).toBeUndefined();
    expect(shapes.read('gpt-4o', later.replace('"Line one', '"Line\u0001one'))).toBeUndefined();
  });

  it('refuses a shape whose values the probe does not read back (the answer’s own written with a space)', () => {
    const shapes = new CompletionShapes();
    const answer = (decoy: number) =>
      `{"id":"c","object":"chat.completion","created":5,"choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens": 12,"completion_tokens":1},"x":{"prompt_tokens":${decoy}}}`;
    shapes.learn('m', answer(12), JSON.parse(answer(12)));
    // Only the decoy's count differs: a shape that took it for the usage's would read 99 tokens.
    expect(shapes.read('m', answer(99))).toBeUndefined();
  });
});
