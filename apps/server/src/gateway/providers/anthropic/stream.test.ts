import { describe, expect, it } from 'vitest';
import { runStream, testContext } from '../../../../test/fake-upstreams/adapter-testing.ts';
import { fixtureText, parseSseTranscript } from '../../../../test/fake-upstreams/fixtures.ts';
import { anthropicAdapter } from './anthropic.ts';

describe('anthropic stream: usage', () => {
  it('reports the real usage with message_delta, so a connection lost before message_stop keeps it', () => {
    const events = parseSseTranscript(fixtureText('anthropic', 'stream.sse.txt'));
    expect(events.at(-1)?.event).toBe('message_stop');
    const result = runStream(anthropicAdapter, events.slice(0, -1), 'claude-3-5-sonnet');
    expect(result.done).toBe(false);
    expect(result.chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(result.chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 } });
    expect(result.usage).toEqual({ prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 });
  });

  it('message_stop after message_delta adds no second usage chunk, and its usage is the same (overwritten downstream, not summed)', () => {
    const parser = anthropicAdapter.createStreamParser('claude-3-5-sonnet', testContext);
    const steps = parseSseTranscript(fixtureText('anthropic', 'stream.sse.txt')).map((event) => parser.push(event));
    const usageChunks = steps.flatMap((step) => step.chunks).filter((chunk) => chunk.usage !== undefined);
    expect(usageChunks).toHaveLength(1);
    expect(steps.at(-1)).toEqual({ chunks: [], usage: { prompt_tokens: 25, completion_tokens: 15, total_tokens: 40 }, done: true });
  });

  it('message_stop still reports usage when no message_delta came before it', () => {
    const events = parseSseTranscript(fixtureText('anthropic', 'stream.sse.txt')).filter((event) => event.event !== 'message_delta');
    const result = runStream(anthropicAdapter, events, 'claude-3-5-sonnet');
    expect(result.chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(result.chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 25, completion_tokens: 1, total_tokens: 26 } });
    expect(result.usage).toEqual({ prompt_tokens: 25, completion_tokens: 1, total_tokens: 26 });
  });
});

describe('anthropic stream: finish', () => {
  it('model_context_window_exceeded in a stream finishes with length', () => {
    const events = parseSseTranscript(fixtureText('anthropic', 'stream.sse.txt')).map((event) =>
      event.event === 'message_delta' ? { ...event, data: event.data.replace('"end_turn"', '"model_context_window_exceeded"') } : event,
    );
    const finishes = runStream(anthropicAdapter, events, 'claude-3-5-sonnet').chunks.map((chunk) => chunk.choices[0]?.finish_reason);
    expect(finishes.filter(Boolean)).toEqual(['length']);
  });
});
