import type { ModelInfo } from '@conductor/shared';
import type { ChatCompletionRequest, ChatMessage } from '@conductor/shared/openai/chat';
import { compact, isInstruction, maxTokensOf } from '../common/messages.ts';
import { openAiResponseFormat } from '../common/response-format.ts';

export interface OpenAiBodyOptions {
  /** OpenAI accepts `developer`; Azure's older API versions and Mistral know only `system`. */
  developerRole: boolean;
  /** Whether `model` goes in the body (Azure routes by deployment in the URL instead). */
  modelInBody: boolean;
  /** OpenAI and Azure report stream usage only when asked (`stream_options.include_usage`). */
  streamUsageOption: boolean;
  /** The body member carrying the seed (`seed` on OpenAI, `random_seed` on Mistral). */
  seedField: 'seed' | 'random_seed';
  /** Whether the upstream accepts `user` and message `name` (Mistral refuses unknown members). */
  userField: boolean;
  /** Whether `max_completion_tokens` exists upstream; if not, it is sent as `max_tokens`. */
  maxCompletionTokens: boolean;
}

/**
 * The chat messages as the upstream takes them: roles and content pass through (text parts
 * included); `tool` messages lose their role because this tool-free API cannot carry the
 * `tool_call_id` that upstreams require for it.
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
function mapMessage(message: ChatMessage, options: OpenAiBodyOptions): Record<string, unknown> {
  let role: string = message.role;
  if (message.role === 'developer' && !options.developerRole) role = 'system';
  if (message.role === 'tool') role = 'user';
  if (isInstruction(message) && message.content === null) return { role, content: '' };
  return compact({ role, content: message.content ?? '', name: options.userField ? message.name : undefined });
}

/** https://platform.openai.com/docs/api-reference/chat/create */
export function buildOpenAiBody(request: ChatCompletionRequest, model: ModelInfo, options: OpenAiBodyOptions): Record<string, unknown> {
  return compact({
    model: options.modelInBody ? model.upstreamModel : undefined,
    messages: request.messages.map((message) => mapMessage(message, options)),
    temperature: request.temperature,
    top_p: request.top_p,
    max_tokens: options.maxCompletionTokens ? request.max_tokens : maxTokensOf(request),
    max_completion_tokens: options.maxCompletionTokens ? request.max_completion_tokens : undefined,
    stop: request.stop,
    presence_penalty: request.presence_penalty,
    frequency_penalty: request.frequency_penalty,
    [options.seedField]: request.seed,
    user: options.userField ? request.user : undefined,
    response_format: openAiResponseFormat(request),
    stream: request.stream,
    stream_options: request.stream && options.streamUsageOption ? { include_usage: true } : undefined,
  });
}
