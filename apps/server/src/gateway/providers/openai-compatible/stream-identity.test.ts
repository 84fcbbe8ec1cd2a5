import { describe, expect, it } from 'vitest';
import { sseData } from '../common/chunks.ts';
import type { AdapterContext } from '../types.ts';
import { createOpenAiStreamParser, type StreamShapes } from './create-adapter.ts';

const context: AdapterContext = { now: () => 1_732_000_000_000, generateId: () => 'generated' };

const read = (parser: ReturnType<typeof createOpenAiStreamParser>, events: string[]) =>
  events.map((data) => {
    const step = parser.push({ event: undefined, data });
    return { sse: step.chunks.map(sseData), done: step.done, usage: step.usage };
  });

const ev = (id: string, created: number, body: string) =>
  `{"id":"${id}","object":"chat.completion.chunk","created":${created},"model":"m",${body}}`;
const role = (id: string, created: number) =>
  ev(id, created, '"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]');
const text = (id: string, created: number, t: string) =>
  ev(id, created, `"choices":[{"index":0,"delta":{"content":"${t}"},"finish_reason":null}]`);
const finish = (id: string, created: number) => ev(id, created, '"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]');
const usage = (id: string, created: number, p: number, c: number) =>
  ev(id, created, `"choices":[],"usage":{"prompt_tokens":${p},"completion_tokens":${c},"total_tokens":${p + c}}`);
const empty = (id: string, created: number) => ev(id, created, '"choices":[]');

/** Teaches `shapes` with one ordinary stream, then compares a second stream with a parser that learnt nothing. */
function compare(second: string[]) {
  const shapes: StreamShapes = { events: [] };
  read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), [
    role('t', 1),
    text('t', 1, 'Hello'),
    text('t', 1, ' world'),
    finish('t', 1),
    usage('t', 1, 3, 2),
    '[DONE]',
  ]);
  expect(shapes.content).toBeDefined();
  const fresh = read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context), second);
  const learnt = read(createOpenAiStreamParser('OpenAI', 'gpt-4o', context, shapes), second);
  return { fresh, learnt };
}

/**
 * A content template borrowed from earlier streams of the model is filled with the identity of
 * the first event that carries one; events before the first choice can still change the stream's
 * identity, and a content event read from the template must identify the stream as a parsed one
 * would (found by review, the last two by fuzzing against a parser that learnt nothing).
 */
describe("learnt content template: the stream's identity", () => {
  it('takes the identity of a later non-starting event instead of the content event’s own id', () => {
    // e1 (no choice 0) fixes the borrowed template to id A; e2 (no choice 0) re-identifies the
    // sequence as B; e3 is a content chunk with id A: a plain parse identifies as A, the template path keeps B.
    const { fresh, learnt } = compare([empty('A', 5), empty('B', 6), text('A', 5, 'Hi'), finish('A', 5), '[DONE]']);
    expect(fresh[2]!.sse.join('')).toContain('"id":"A"');
    expect(learnt).toEqual(fresh);
  });

  it("takes the content event's created when only created changed before it", () => {
    const { fresh, learnt } = compare([empty('A', 5), empty('A', 9), text('A', 5, 'Hi'), '[DONE]']);
    expect(fresh[2]!.sse.join('')).toContain('"created":5');
    expect(learnt).toEqual(fresh);
  });

  it('an empty id on the first event (Azure-style) then a real one', () => {
    // e1 fixes the borrowed template to id "" / created 9, e2 identifies A / 5, e3 (id "", created 9)
    // is read from the template: a plain parse keeps id A (an empty id is ignored) but takes created 9.
    const { fresh, learnt } = compare([empty('', 9), empty('A', 5), text('', 9, 'Hi'), '[DONE]']);
    expect(fresh[2]!.sse.join('')).toContain('"id":"A","object":"chat.completion.chunk","created":9');
    expect(learnt).toEqual(fresh);
  });

  it('n=2: choice 1 streams first while created ticks, then choice 0 content', () => {
    const other = (created: number) => ev('A', created, '"choices":[{"index":1,"delta":{"content":"x"},"finish_reason":null}]');
    const { fresh, learnt } = compare([other(5), other(6), text('A', 5, 'Hi'), '[DONE]']);
    expect(fresh[2]!.sse.join('')).toContain('"created":5');
    expect(learnt).toEqual(fresh);
  });
});
