import { ChunkSequence, completionId, unixSeconds } from '../common/chunks.ts';
import { ProviderProtocolError } from '../common/stream-error.ts';
import type { AdapterContext, SseEvent, StreamParser, StreamStep } from '../types.ts';
import { failureOf, mapCohereFinishReason, mapCohereUsage } from './response.ts';
import { CohereStreamEvent } from './schemas.ts';

/**
 * v2 stream: `message-start` (id) → `content-start` → `content-delta`s
 * (`delta.message.content.text`) → `content-end` → `message-end` (finish reason, usage). Tool and
 * citation events are skipped: this API is tool-free.
 * https://docs.cohere.com/docs/streaming and https://docs.cohere.com/reference/chat-stream
 */
export function createCohereStreamParser(publicModel: string, context: AdapterContext): StreamParser {
  const sequence = new ChunkSequence(publicModel, () => completionId(context), unixSeconds(context));
  return {
    push(event: SseEvent): StreamStep {
      if (event.data.trim() === '' || event.data.trim() === '[DONE]') return { chunks: [], done: event.data.trim() === '[DONE]' };
      let json: unknown;
      try {
        json = JSON.parse(event.data);
      } catch {
        throw new ProviderProtocolError('Cohere', 'stream event was not JSON');
      }
      const parsed = CohereStreamEvent.safeParse(json);
      if (!parsed.success) {
        if (typeof json === 'object' && json !== null && 'type' in json) return { chunks: [], done: false };
        throw new ProviderProtocolError('Cohere', 'stream event did not match the documented shape');
      }
      const data = parsed.data;
      switch (data.type) {
        case 'message-start':
          sequence.identify(data.id, undefined);
          return { chunks: sequence.start(), done: false };
        case 'content-start':
        case 'content-delta':
          return { chunks: sequence.content(data.delta?.message?.content?.text ?? ''), done: false };
        case 'message-end': {
          const failure = failureOf(data.delta?.finish_reason, data.delta?.error);
          if (failure) throw failure;
          const usage = mapCohereUsage(data.delta?.usage);
          const chunks = sequence.finish(mapCohereFinishReason(data.delta?.finish_reason) ?? 'stop');
          chunks.push(sequence.usage(usage));
          return { chunks, usage, done: true };
        }
        default:
          return { chunks: [], done: false };
      }
    },
  };
}
