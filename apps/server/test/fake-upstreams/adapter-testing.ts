import type { ModelInfo } from '@conductor/shared';
import { findModel } from '@conductor/shared';
import type { ChatCompletionChunk, ChatCompletionRequest, ChatCompletionRequestInput, Usage } from '@conductor/shared/openai/chat';
import { ChatCompletionRequest as ChatCompletionRequestSchema } from '@conductor/shared/openai/chat';
import type { AdapterContext, ProviderAdapter, SseEvent } from '../../src/gateway/providers/types.ts';

/** A fixed clock and id source, so mapped results are exact. */
export const TEST_NOW = 1_700_000_000_000;
export const testContext: AdapterContext = { now: () => TEST_NOW, generateId: () => 'chatcmpl-test0001' };

export function modelInfo(id: string): ModelInfo {
  const model = findModel(id);
  if (!model) throw new Error(`unknown model ${id}`);
  return model;
}

/** A request as the gateway hands it to adapters: validated (defaults applied) by the shared schema. */
export function chatRequest(input: Partial<ChatCompletionRequestInput> = {}): ChatCompletionRequest {
  return ChatCompletionRequestSchema.parse({
    model: 'test-model',
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello!' },
    ],
    ...input,
  });
}

export interface StreamResult {
  chunks: ChatCompletionChunk[];
  usage: Usage | undefined;
  done: boolean;
  /** Content deltas joined. */
  text: string;
}

/** Feeds every event to a fresh parser and collects what it emits. */
export function runStream(adapter: ProviderAdapter, events: SseEvent[], publicModel: string): StreamResult {
  const parser = adapter.createStreamParser(publicModel, testContext);
  const chunks: ChatCompletionChunk[] = [];
  let usage: Usage | undefined;
  let done = false;
  for (const event of events) {
    const step = parser.push(event);
    chunks.push(...step.chunks);
    if (step.usage) usage = step.usage;
    if (step.done) {
      done = true;
      break;
    }
  }
  const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
  return { chunks, usage, done, text };
}

/** Pushes events until one throws; returns the chunks emitted before and the error. */
export function streamUntilError(
  adapter: ProviderAdapter,
  events: SseEvent[],
  publicModel: string,
): { chunks: ChatCompletionChunk[]; error: unknown } {
  const parser = adapter.createStreamParser(publicModel, testContext);
  const chunks: ChatCompletionChunk[] = [];
  for (const event of events) {
    try {
      chunks.push(...parser.push(event).chunks);
    } catch (error) {
      return { chunks, error };
    }
  }
  return { chunks, error: undefined };
}
