import type { FinishReason } from '@conductor/shared/openai/chat';

/**
 * OpenAI's finish reasons (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices),
 * the legacy `function_call`, and Mistral's `model_length` / `error`
 * (https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post).
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
