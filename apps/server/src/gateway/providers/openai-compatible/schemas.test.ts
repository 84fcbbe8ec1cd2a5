import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentChunk, plainCompletion, UpstreamChunk, UpstreamCompletion } from './schemas.ts';

/** What the stream mapping reads of a chunk (create-adapter.ts `mapChunk`). */
function readOf(chunk: UpstreamChunk) {
  return {
    id: chunk.id,
    created: chunk.created,
    usage: chunk.usage
      ? { prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens, total: chunk.usage.total_tokens }
      : null,
    choices: chunk.choices.map((choice) => ({
      index: choice.index,
      content: choice.delta.content ?? null,
      role: choice.delta.role ?? null,
      finish: choice.finish_reason ?? null,
    })),
  };
}

const loose = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
);
/** Mostly well-formed values, sometimes anything: both sides of the fast path get exercised. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: loose, weight: 1 });
const delta = mostly(fc.record({ role: mostly(fc.constant('assistant')), content: mostly(fc.string()) }, { requiredKeys: [] }));
const choice = mostly(
  fc.record(
    { index: mostly(fc.nat(3)), delta, finish_reason: mostly(fc.constantFrom('stop', 'length', null)), logprobs: loose },
    { requiredKeys: ['index', 'delta'] },
  ),
);
const count = mostly(fc.oneof(fc.nat(), fc.integer({ min: -3, max: -1 })));
const chunk = mostly(
  fc.record(
    {
      id: mostly(fc.string()),
      object: fc.constant('chat.completion.chunk'),
      created: mostly(fc.nat()),
      model: fc.string(),
      choices: mostly(fc.array(choice, { maxLength: 3 })),
      usage: fc.oneof(
        { arbitrary: fc.constant(null), weight: 3 },
        {
          arbitrary: fc.record(
            { prompt_tokens: count, completion_tokens: count, total_tokens: count, prompt_tokens_details: loose },
            { requiredKeys: ['prompt_tokens'] },
          ),
          weight: 2,
        },
        { arbitrary: loose, weight: 1 },
      ),
      system_fingerprint: loose,
    },
    { requiredKeys: ['choices'] },
  ),
);

describe('contentChunk (the streaming fast path of UpstreamChunk)', () => {
  it('accepts only what UpstreamChunk accepts, and reads the same', () => {
    let accepted = 0;
    fc.assert(
      fc.property(chunk, (value) => {
        const fast = contentChunk(value);
        if (!fast) return;
        accepted += 1;
        const parsed = UpstreamChunk.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(readOf(fast)).toEqual(readOf(parsed.data as UpstreamChunk));
      }),
      { numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('takes the documented content and usage chunks and leaves content parts and partial usage to zod', () => {
    const content = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
    };
    expect(contentChunk(content)).toBe(content);
    const usage = { ...content, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    expect(contentChunk(usage)).toBe(usage);
    // zod defaults a missing completion count; the fast path would not, so it leaves that to zod.
    expect(contentChunk({ ...content, choices: [], usage: { prompt_tokens: 1 } })).toBeUndefined();
    expect(contentChunk({ ...content, choices: [], usage: { prompt_tokens: -1, completion_tokens: 1 } })).toBeUndefined();
    expect(contentChunk({ ...content, choices: [{ index: 0, delta: { content: [{ type: 'text', text: 'Hi' }] } }] })).toBeUndefined();
    expect(contentChunk({ ...content, choices: [{ index: 0 }] })).toBeUndefined();
  });
});

const message = mostly(
  fc.record({ role: fc.constant('assistant'), content: mostly(fc.oneof(fc.string(), fc.constant(null))), refusal: loose }),
);
const completionChoice = mostly(
  fc.record(
    { index: mostly(fc.nat(3)), message, finish_reason: mostly(fc.constantFrom('stop', 'length', null)) },
    { requiredKeys: ['index', 'message'] },
  ),
);
const completion = mostly(
  fc.record(
    {
      id: mostly(fc.string()),
      object: fc.constant('chat.completion'),
      created: mostly(fc.nat()),
      choices: mostly(fc.array(completionChoice, { minLength: 1, maxLength: 3 })),
      usage: fc.oneof(
        fc.constant(null),
        fc.record({ prompt_tokens: count, completion_tokens: count, total_tokens: count }, { requiredKeys: ['prompt_tokens'] }),
        loose,
      ),
    },
    { requiredKeys: ['id', 'choices'] },
  ),
);

function completionRead(value: UpstreamCompletion) {
  return {
    id: value.id,
    created: value.created,
    usage: value.usage
      ? { prompt: value.usage.prompt_tokens, completion: value.usage.completion_tokens, total: value.usage.total_tokens }
      : null,
    choices: value.choices.map((choice) => ({
      index: choice.index,
      content: choice.message.content ?? null,
      finish: choice.finish_reason ?? null,
    })),
  };
}

describe('plainCompletion (the hot path of UpstreamCompletion)', () => {
  it('accepts only what UpstreamCompletion accepts, and reads the same', () => {
    let accepted = 0;
    fc.assert(
      fc.property(completion, (value) => {
        const fast = plainCompletion(value);
        if (!fast) return;
        accepted += 1;
        const parsed = UpstreamCompletion.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(completionRead(fast)).toEqual(completionRead(parsed.data as UpstreamCompletion));
      }),
      { numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});
