import type { ModelInfo } from '@conductor/shared';
import type { ChatCompletionRequest, ChatMessage } from '@conductor/shared/openai/chat';
import { compact, isInstruction, maxTokensOf, stopList, textParts } from '../common/messages.ts';
import { jsonSchemaOf, structuredFormatOf } from '../common/response-format.ts';
import type { ProviderCredentials, UpstreamRequest } from '../types.ts';

/**
 * v2 messages take the roles `system`, `user`, `assistant` (and `tool`, which needs a
 * `tool_call_id` this API cannot carry, so it is sent as user text); content is a string or text
 * parts, passed through as they came. https://docs.cohere.com/reference/chat#request.body.messages
 */
function mapMessage(message: ChatMessage): { role: 'system' | 'user' | 'assistant'; content: ChatMessage['content'] & {} } {
  const role = isInstruction(message) ? 'system' : message.role === 'assistant' ? 'assistant' : 'user';
  return { role, content: message.content ?? '' };
}

/**
 * Cohere's JSON mode is `{type: "json_object"}`, with the caller's JSON Schema, when there is
 * one, as its `json_schema` (Cohere has no separate schema type). https://docs.cohere.com/docs/structured-outputs
 */
function responseFormat(request: ChatCompletionRequest): Record<string, unknown> | undefined {
  if (!structuredFormatOf(request)) return undefined;
  const schema = jsonSchemaOf(request);
  return schema && Object.keys(schema).length > 0 ? { type: 'json_object', json_schema: schema } : { type: 'json_object' };
}

/**
 * The messages in order; instructions alone (valid for OpenAI) are sent as the one user message,
 * since Cohere answers only a conversation with a user message in it.
 * https://docs.cohere.com/reference/chat#request.body.messages
 */
function mapMessages(messages: ChatMessage[]): ReturnType<typeof mapMessage>[] {
  if (!messages.every(isInstruction)) return messages.map(mapMessage);
  const content = messages.flatMap((message) => textParts(message.content)).map((text) => ({ type: 'text' as const, text }));
  return [{ role: 'user', content }];
}

/** `POST {base}/v2/chat` with `Authorization: Bearer`. https://docs.cohere.com/reference/chat */
export function buildCohereRequest(request: ChatCompletionRequest, model: ModelInfo, credentials: ProviderCredentials): UpstreamRequest {
  const body = compact({
    model: model.upstreamModel,
    messages: mapMessages(request.messages),
    temperature: request.temperature,
    p: request.top_p,
    max_tokens: maxTokensOf(request),
    stop_sequences: stopList(request.stop),
    frequency_penalty: request.frequency_penalty,
    presence_penalty: request.presence_penalty,
    seed: request.seed,
    response_format: responseFormat(request),
    stream: request.stream,
  });
  return {
    url: `${credentials.baseUrl}/v2/chat`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${credentials.apiKey}`,
      'content-type': 'application/json',
      accept: request.stream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
  };
}
