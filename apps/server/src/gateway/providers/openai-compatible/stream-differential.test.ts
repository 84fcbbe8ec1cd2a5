import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkSequence, sseData, usageOf } from '../common/chunks.ts';
import type { AdapterContext, StreamStep } from '../types.ts';
import { createOpenAiStreamParser, type StreamShapes } from './create-adapter.ts';
import { mapOpenAiFinishReason } from './finish-reason.ts';
import { contentChunk, UpstreamChunk } from './schemas.ts';

/**
 * Differential test of the learnt stream shapes: streams of one model, built from a small pool of
 * event layouts (so shapes recur and are learnt) with rare variations in every place a learnt
 * shape reads from the bytes (escapes, number spellings, duplicate keys, decoy members, spacing,
 * key order, extra fields, several choices, null usage), read one after another or interleaved
 * through one shared cache, must give exactly what a parser that JSON-parses every event gives:
 * the same chunks, SSE text, usage, end and errors.
 */
const context: AdapterContext = { now: () => 1_732_000_000_000, generateId: () => 'generated' };

/** A parser that learns nothing: JSON.parse every event. */
function reference() {
  const sequence = new ChunkSequence('gpt-4o', () => 'chatcmpl-generated', 1_732_000_000);
  return {
    push(data0: string): StreamStep {
      const data = data0.trim();
      if (data === '[DONE]') return { chunks: [], done: true };
      if (data === '') return { chunks: [], done: false };
      const json = JSON.parse(data);
      if (typeof json === 'object' && json !== null && 'error' in json) throw new Error('in-stream error');
      const chunk = contentChunk(json) ?? UpstreamChunk.parse(json);
      sequence.identify(chunk.id, chunk.created);
      const step: StreamStep = { chunks: [], done: false };
      const choice = chunk.choices.find((entry) => entry.index === 0);
      if (choice) {
        step.chunks.push(...sequence.content(choice.delta.content ?? ''));
        const finish = mapOpenAiFinishReason(choice.finish_reason);
        if (finish) step.chunks.push(...sequence.finish(finish));
      }
      if (chunk.usage) {
        const usage = usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens, chunk.usage.total_tokens);
        step.usage = usage;
        step.chunks.push(sequence.usage(usage));
      }
      return step;
    },
  };
}

const show = (step: StreamStep) => ({
  sse: step.chunks.map(sseData),
  json: step.chunks.map((chunk) => JSON.stringify(chunk)),
  usage: step.usage,
  done: step.done,
});

const pick = <T>(items: T[]) => fc.constantFrom(...items);
const w = <T>(common: T[], rare: T[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...common), weight: 6 }, { arbitrary: fc.constantFrom(...rare), weight: 1 });
const idText = w(['"A"', '"B"', '"chatcmpl-1"'], ['""', '"\\u0041"', '"A\\"x"', '"Hi"', '"5"']);
const createdText = w(['5', '9', '1732000001', '10'], ['0', '1', '5.0', '5e0', ' 5', '-0', '123456789012345', '1234567890123456']);
const countText = w(['0', '3', '5', '10', '50'], ['3.0', ' 5', '-0', '999999999999999', '1000000000000000', '05']);
const contentText = w(
  ['"Hi"', '"A"', '" there"', '"5"'],
  ['""', 'null', '"\\u0048i"', '"a\\"b"', '"\\"id\\":\\"A\\""', '" "', '"created"', '"x\\\\"'],
);
const rare = <T>(arb: fc.Arbitrary<T>, k: number) => fc.oneof({ arbitrary: fc.constant(null), weight: k }, { arbitrary: arb, weight: 1 });
type Choice = {
  index: string;
  role: string | null;
  content: string | null;
  dup: string | null;
  tool: boolean;
  finish: string | null;
  logprobs: boolean;
  order: boolean;
};
const choiceGen = fc.record({
  index: w(['0'], ['1', '0 ']),
  role: fc.option(pick(['"assistant"', 'null'])),
  content: fc.option(contentText, { freq: 2 }),
  dup: rare(contentText, 15),
  tool: fc.boolean(),
  finish: fc.option(pick(['null', '"stop"', '"length"', '"tool_calls"'])),
  logprobs: fc.boolean(),
  order: fc.nat(6).map((n) => n === 0),
});
const renderChoice = (c: Choice, content?: string) => {
  const delta: string[] = [];
  if (c.role !== null) delta.push(`"role":${c.role}`);
  if (c.content !== null) delta.push(`"content":${content !== undefined && c.content !== 'null' ? content : c.content}`);
  if (c.tool) delta.push('"tool_calls":[{"index":0,"id":"A","function":{"arguments":"{}"}}]');
  if (c.dup !== null) delta.push(`"content":${c.dup}`);
  const members = [`"index":${c.index}`, `"delta":{${delta.join(',')}}`];
  if (c.logprobs) members.push('"logprobs":null');
  if (c.finish !== null) members.push(`"finish_reason":${c.finish}`);
  if (c.order) members.reverse();
  return `{${members.join(',')}}`;
};
const usageGen = fc.record({
  p: countText,
  c: fc.option(countText, { freq: 8 }),
  t: fc.option(countText, { freq: 3 }),
  nested: fc.nat(8).map((n) => n === 0),
});
type Usage = { p: string; c: string | null; t: string | null; nested: boolean };
const renderUsage = (u: Usage, counts?: string[]) => {
  const members = [`"prompt_tokens":${counts?.[0] ?? u.p}`];
  if (u.c !== null) members.push(`"completion_tokens":${counts?.[1] ?? u.c}`);
  if (u.t !== null) members.push(`"total_tokens":${counts?.[2] ?? u.t}`);
  if (u.nested) members.push(`"prompt_tokens_details":{"prompt_tokens":${u.p}}`);
  return `{${members.join(',')}}`;
};
const baseGen = fc.record({
  id: fc.option(idText, { freq: 12 }),
  created: fc.option(createdText, { freq: 12 }),
  choices: fc.oneof(
    { arbitrary: fc.array(choiceGen, { minLength: 1, maxLength: 1 }), weight: 5 },
    { arbitrary: fc.array(choiceGen, { maxLength: 2 }), weight: 2 },
  ),
  usage: rare(fc.oneof({ arbitrary: usageGen, weight: 4 }, { arbitrary: fc.constant('NULL' as const), weight: 1 }), 3),
  decoy: rare(pick(['{"id":"A","created":5}', '{"content":"Hi"}', '{"prompt_tokens":3,"completion_tokens":5}', '"\\"id\\":\\"A\\""']), 4),
  dupId: rare(idText, 15),
  dupCreated: rare(createdText, 15),
  order: fc.nat(5),
  space: fc.nat(8).map((n) => n === 0),
  spacing: fc.nat(8).map((n) => n === 0),
});
type Base = typeof baseGen extends fc.Arbitrary<infer T> ? T : never;
function render(e: Base, v: { id?: string; created?: string; content?: string; counts?: string[] }) {
  const members: string[] = [];
  if (e.id !== null) members.push(`"id":${v.id ?? e.id}`);
  members.push('"object":"chat.completion.chunk"');
  if (e.created !== null) members.push(`"created":${v.created ?? e.created}`);
  members.push('"model":"m"');
  if (e.decoy !== null) members.splice(e.order % (members.length + 1), 0, `"x":${e.decoy}`);
  members.push(`"choices":[${e.choices.map((c) => renderChoice(c as Choice, v.content)).join(',')}]`);
  if (e.usage !== null) members.push(`"usage":${e.usage === 'NULL' ? 'null' : renderUsage(e.usage as Usage, v.counts)}`);
  if (e.dupId !== null) members.push(`"id":${e.dupId}`);
  if (e.dupCreated !== null) members.push(`"created":${e.dupCreated}`);
  const body = `{${members.join(',')}}`;
  return `${e.space ? ' ' : ''}${e.spacing ? body.replaceAll('":', '": ').replaceAll(',"', ', "') : body}`;
}
const eventPick = fc.record({
  base: fc.nat(100),
  ownId: fc.nat(3).map((n) => n !== 0),
  ownCreated: fc.nat(3).map((n) => n !== 0),
  content: fc.option(contentText, { freq: 4 }),
  counts: fc.option(fc.array(countText, { minLength: 3, maxLength: 3 }), { freq: 2 }),
});
const streamsGen = fc
  .record({
    pool: fc.array(baseGen, { minLength: 1, maxLength: 5 }),
    streams: fc.array(fc.array(eventPick, { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
    interleave: fc.boolean(),
    ids: fc.array(
      fc.record({
        id: w(['"A"', '"B"', '"chatcmpl-1"', '"Q"'], ['""', '"\\u0041"']),
        created: w(['5', '9', '77', '1732000001'], ['0', '5.0']),
      }),
      {
        minLength: 12,
        maxLength: 12,
      },
    ),
  })
  .map(({ pool, streams, interleave, ids }) => ({
    interleave,
    streams: streams.map((picks, s) =>
      picks.map((p) =>
        render(pool[p.base % pool.length]!, {
          id: p.ownId ? ids[s]!.id : undefined,
          created: p.ownCreated ? ids[s]!.created : undefined,
          content: p.content ?? undefined,
          counts: p.counts ?? undefined,
        }),
      ),
    ),
  }));

type Outcome = ReturnType<typeof show> | { error: true };

function outcome(push: () => StreamStep): Outcome {
  try {
    return show(push());
  } catch {
    return { error: true };
  }
}

/** Each stream's outcomes, the streams read in turn or event by event in rotation; a stream stops at its first error. */
function readAll(streams: string[][], interleave: boolean, open: () => (data: string) => StreamStep): Outcome[][] {
  const readers = streams.map(() => undefined as ((data: string) => StreamStep) | undefined);
  const results: Outcome[][] = streams.map(() => []);
  const step = (index: number, data: string) => {
    const result = results[index] as Outcome[];
    if (result.some((entry) => 'error' in entry)) return;
    readers[index] ??= open();
    const push = readers[index] as (data: string) => StreamStep;
    result.push(outcome(() => push(data)));
  };
  if (!interleave) {
    for (const [index, events] of streams.entries()) for (const data of events) step(index, data);
  } else {
    const longest = Math.max(0, ...streams.map((events) => events.length));
    for (let at = 0; at < longest; at += 1) {
      for (const [index, events] of streams.entries()) if (at < events.length) step(index, events[at] as string);
    }
  }
  return results;
}

describe('OpenAI-compatible stream: learnt shapes against a parser that learnt nothing', () => {
  it('gives the same output for any sequence of streams, sequential or interleaved', () => {
    fc.assert(
      fc.property(streamsGen, ({ streams, interleave }) => {
        const shapes: StreamShapes = { events: [] };
        const learnt = readAll(streams, interleave, () => {
          const parser = createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes);
          return (data) => parser.push({ event: undefined, data });
        });
        const plain = readAll(streams, interleave, () => {
          const parser = reference();
          return (data) => parser.push(data);
        });
        expect(learnt).toEqual(plain);
      }),
      { numRuns: 10_000 },
    );
  }, 60_000);
});
