import { ChunkSequence, completionId, unixSeconds, usageOf } from '../common/chunks.ts';
import { ProviderProtocolError, ProviderStreamError } from '../common/stream-error.ts';
import type { AdapterContext, SseEvent, StreamParser, StreamStep } from '../types.ts';
import { mapAnthropicError, statusOfAnthropicErrorType } from './errors.ts';
import { mapAnthropicStopReason, promptTokensOf } from './response.ts';
import { AnthropicStreamEvent } from './schemas.ts';

/**
 * https://docs.anthropic.com/en/api/messages-streaming — `message_start` (id, input tokens) →
 * content blocks of `text_delta`s → `message_delta` (stop reason, cumulative output tokens) →
 * `message_stop`; `ping`s anywhere; `error` events mid-stream. Usage goes out with the
 * `message_delta` that finishes the message, so a connection lost before `message_stop` still
 * meters the real counts; `message_stop` repeats the same totals (the gateway keeps the last
 * usage reported, it does not add them up) and sends the usage chunk only if none went out.
 */
export function createAnthropicStreamParser(publicModel: string, context: AdapterContext): StreamParser {
  const sequence = new ChunkSequence(publicModel, () => completionId(context), unixSeconds(context));
  let promptTokens = 0;
  let completionTokens = 0;
  let usageChunkSent = false;

  return {
    push(event: SseEvent): StreamStep {
      if (event.data.trim() === '') return { chunks: [], done: false };
      let json: unknown;
      try {
        json = JSON.parse(event.data);
      } catch {
        throw new ProviderProtocolError('Anthropic', 'stream event was not JSON');
      }
      const parsed = AnthropicStreamEvent.safeParse(json);
      // Anthropic may add event types; unknown ones are skipped as its versioning policy asks.
      // https://docs.anthropic.com/en/api/versioning
      if (!parsed.success) {
        if (typeof json === 'object' && json !== null && 'type' in json) return { chunks: [], done: false };
        throw new ProviderProtocolError('Anthropic', 'stream event did not match the documented shape');
      }
      const data = parsed.data;
      switch (data.type) {
        case 'message_start':
          sequence.identify(data.message.id, undefined);
          if (data.message.usage) {
            promptTokens = promptTokensOf(data.message.usage);
            completionTokens = data.message.usage.output_tokens ?? 0;
          }
          return { chunks: sequence.start(), done: false };
        case 'content_block_start':
          return { chunks: sequence.content(data.content_block.text ?? ''), done: false };
        case 'content_block_delta':
          return { chunks: data.delta.type === 'text_delta' ? sequence.content(data.delta.text ?? '') : [], done: false };
        case 'message_delta': {
          if (data.usage) {
            if (data.usage.input_tokens !== undefined && data.usage.input_tokens !== null) promptTokens = promptTokensOf(data.usage);
            completionTokens = data.usage.output_tokens ?? completionTokens;
          }
          const usage = usageOf(promptTokens, completionTokens);
          const finish = mapAnthropicStopReason(data.delta.stop_reason);
          if (!finish) return { chunks: [], usage, done: false };
          const chunks = sequence.finish(finish);
          if (!usageChunkSent) {
            chunks.push(sequence.usage(usage));
            usageChunkSent = true;
          }
          return { chunks, usage, done: false };
        }
        case 'message_stop': {
          const usage = usageOf(promptTokens, completionTokens);
          const chunks = sequence.finish('stop');
          if (!usageChunkSent) {
            chunks.push(sequence.usage(usage));
            usageChunkSent = true;
          }
          return { chunks, usage, done: true };
        }
        case 'error':
          throw new ProviderStreamError(
            mapAnthropicError(statusOfAnthropicErrorType(data.error.type), { type: 'error', error: data.error }, {}),
          );
        default:
          return { chunks: [], done: false };
      }
    },
  };
}
