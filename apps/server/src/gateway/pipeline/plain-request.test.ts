import { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainChatRequest } from './plain-request.ts';

const loose = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.boolean(), { maxKeys: 2 }),
);
/** Mostly well-formed values, sometimes anything: both sides of the fast path get exercised. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 30 }, { arbitrary: loose, weight: 1 });
/** A member the fast path leaves to the schema, on one body in ten. */
const rarely = <T>(value: T) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: fc.constant(value), weight: 1 });
/** In range, on its bounds, or (rarely) just outside. */
const edgy = (min: number, max: number) =>
  fc.oneof(
    { arbitrary: fc.double({ min, max, noNaN: true }), weight: 12 },
    { arbitrary: fc.constantFrom(min, max), weight: 2 },
    { arbitrary: fc.constantFrom(min - 0.001, max + 0.5), weight: 1 },
  );
const tokens = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 1_000_000 }), weight: 12 },
  { arbitrary: fc.constantFrom(1_000_001, 1.5, 2 ** 53, 0, -2), weight: 1 },
);

const message = mostly(
  fc.record(
    {
      role: mostly(fc.constantFrom('system', 'user', 'assistant', 'developer', 'tool', 'bot')),
      content: mostly(
        fc.oneof(
          { arbitrary: fc.string(), weight: 8 },
          { arbitrary: fc.constant(null), weight: 1 },
          { arbitrary: fc.constant([{ type: 'text', text: 'part' }]), weight: 1 },
        ),
      ),
      name: mostly(
        fc.oneof(
          { arbitrary: fc.string({ maxLength: 64 }), weight: 12 },
          { arbitrary: fc.string({ minLength: 65, maxLength: 70 }), weight: 1 },
        ),
      ),
      extra: rarely(1),
    },
    { requiredKeys: ['role', 'content'] },
  ),
);

const body = mostly(
  fc.record(
    {
      model: mostly(
        fc.oneof(
          { arbitrary: fc.string({ maxLength: 130 }), weight: 3 },
          { arbitrary: fc.constant('gpt-4o-mini'), weight: 6 },
          { arbitrary: fc.constant(''), weight: 1 },
        ),
      ),
      messages: mostly(
        fc.oneof({ arbitrary: fc.array(message, { minLength: 1, maxLength: 4 }), weight: 12 }, { arbitrary: fc.constant([]), weight: 1 }),
      ),
      temperature: mostly(edgy(0, 2)),
      top_p: mostly(edgy(0, 1)),
      max_tokens: mostly(tokens),
      max_completion_tokens: mostly(tokens),
      stream: mostly(fc.boolean()),
      stream_options: mostly(fc.record({ include_usage: mostly(fc.boolean()), other: rarely(1) }, { requiredKeys: [] })),
      stop: mostly(fc.oneof(fc.string({ maxLength: 260 }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 5 }))),
      presence_penalty: mostly(edgy(-2, 2)),
      frequency_penalty: mostly(edgy(-2, 2)),
      n: mostly(fc.oneof({ arbitrary: fc.constant(1), weight: 12 }, { arbitrary: fc.constant(2), weight: 1 })),
      user: mostly(fc.string({ maxLength: 260 })),
      seed: mostly(fc.oneof({ arbitrary: fc.integer(), weight: 12 }, { arbitrary: fc.constantFrom(0.5, 2 ** 60), weight: 1 })),
      conductor: rarely({ strategy: 'fallback' }),
      tools: rarely([]),
      metadata: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
      toString: fc.constant('not the prototype'),
    },
    { requiredKeys: ['model', 'messages'] },
  ),
  // Bodies arrive as JSON: members left undefined by the generators are absent, as on the wire.
).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('plainChatRequest: the fast path of the request schema', () => {
  it('accepts only what ChatCompletionRequest accepts, and outputs the same object in the same order', () => {
    let fast = 0;
    fc.assert(
      fc.property(body, (input) => {
        const quick = plainChatRequest(input);
        const parsed = ChatCompletionRequest.safeParse(input);
        if (quick === undefined) return;
        fast += 1;
        expect(parsed.success).toBe(true);
        expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
        expect(quick).toEqual(parsed.data);
      }),
      { numRuns: 4000 },
    );
    // The generator reaches the fast path often enough for the comparison to mean something.
    expect(fast).toBeGreaterThan(150);
  });

  it('takes the usual body, and leaves the routing extension, content parts and a __proto__ member to the schema', () => {
    const usual = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 64, stream: true };
    expect(plainChatRequest(usual)).toEqual({ ...usual, temperature: 1 });
    expect(plainChatRequest({ ...usual, conductor: { strategy: 'cost' } })).toBeUndefined();
    expect(plainChatRequest({ ...usual, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })).toBeUndefined();
    expect(
      plainChatRequest(JSON.parse('{"model":"m","messages":[{"role":"user","content":"x"}],"__proto__":{"polluted":true}}')),
    ).toBeUndefined();
  });
});
