import type { ChatCompletion, FinishReason, Usage } from '@conductor/shared/openai/chat';
import { completionId, completionOf, unixSeconds, usageOf } from '../common/chunks.ts';
import { ProviderProtocolError } from '../common/stream-error.ts';
import type { AdapterContext } from '../types.ts';
import { AnthropicMessage, type AnthropicUsage } from './schemas.ts';

/**
 * https://docs.anthropic.com/en/api/messages#response-stop-reason — `model_context_window_exceeded`
 * (the answer ran into the context window rather than `max_tokens`) is cut off all the same:
 * `length`. `pause_turn` ends this tool-free turn as `stop`.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason | null {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn and reasons added later
      return 'stop';
  }
}

/** Cached prompt tokens are still prompt tokens. https://docs.anthropic.com/en/api/messages#response-usage */
export function promptTokensOf(usage: AnthropicUsage): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

export function mapAnthropicUsage(usage: AnthropicUsage): Usage {
  return usageOf(promptTokensOf(usage), usage.output_tokens ?? 0);
}

/** https://docs.anthropic.com/en/api/messages — text blocks joined; other block types are not part of this tool-free API. */
export function parseAnthropicMessage(body: unknown, publicModel: string, context: AdapterContext): ChatCompletion {
  const parsed = AnthropicMessage.safeParse(body);
  if (!parsed.success) throw new ProviderProtocolError('Anthropic', 'message did not match the documented shape');
  const message = parsed.data;
  const text = message.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
  return completionOf({
    id: message.id || completionId(context),
    created: unixSeconds(context),
    model: publicModel,
    content: text,
    finishReason: mapAnthropicStopReason(message.stop_reason),
    usage: mapAnthropicUsage(message.usage),
  });
}
