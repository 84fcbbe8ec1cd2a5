import type { FinishReason } from '@conductor/shared/openai/chat';
import { ProviderStreamError } from '../common/stream-error.ts';

/**
 * OpenAI's finish reasons (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices),
 * the legacy `function_call`, and Mistral's `model_length`
 * (https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post).
 * Mistral's `error` is not an ending: callers check `generationFailureOf` first.
 */
export function mapOpenAiFinishReason(reason: string | null | undefined): FinishReason | null {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case 'length':
    case 'model_length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

/**
 * Mistral's `finish_reason: "error"` ends a generation that failed: an upstream failure the router
 * may retry (before the first byte) or that breaks the stream (after it), as Cohere's `ERROR` is,
 * never a `stop` that would make a cut-off answer look complete.
 * https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 */
export function generationFailureOf(name: string, reason: string | null | undefined): ProviderStreamError | undefined {
  if (reason !== 'error') return undefined;
  return new ProviderStreamError({
    status: 502,
    type: 'upstream_error',
    disposition: 'retryable',
    message: `${name}: the generation failed`,
  });
}
