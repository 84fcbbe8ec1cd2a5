import type { ModelInfo } from '@conductor/shared';
import type { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import { compact, isInstruction, maxTokensOf, stopList, textParts } from '../common/messages.ts';
import type { ProviderCredentials, UpstreamRequest } from '../types.ts';

export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * `max_tokens` is required by Anthropic; 4,096 is the output ceiling shared by every Claude 3
 * model in the catalogue, so it never exceeds a model's limit.
 * https://docs.anthropic.com/en/docs/about-claude/models/all-models#model-comparison-table
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** Anthropic's temperature range is 0–1 (OpenAI's is 0–2); higher values are clamped. https://docs.anthropic.com/en/api/messages#body-temperature */
const MAX_TEMPERATURE = 1;

type TextBlock = { type: 'text'; text: string };
type Turn = { role: 'user' | 'assistant'; content: TextBlock[] };

/**
 * System and developer messages become the top-level `system` blocks; the rest become user and
 * assistant turns of text blocks, consecutive same-role turns merged and empty ones dropped (the
 * API refuses empty text blocks). `tool` messages become user text: this API carries no tool ids.
 * Instructions alone (valid for OpenAI) would leave `messages` empty, which Anthropic refuses: they
 * are then sent as the one user turn.
 * https://docs.anthropic.com/en/api/messages#body-messages
 */
export function mapAnthropicMessages(messages: ChatCompletionRequest['messages']): { system: TextBlock[]; turns: Turn[] } {
  const system: TextBlock[] = [];
  const turns: Turn[] = [];
  for (const message of messages) {
    const blocks = textParts(message.content).map((text): TextBlock => ({ type: 'text', text }));
    if (blocks.length === 0) continue;
    if (isInstruction(message)) {
      system.push(...blocks);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  if (turns.length === 0 && system.length > 0) return { system: [], turns: [{ role: 'user', content: system }] };
  return { system, turns };
}

/** https://docs.anthropic.com/en/api/messages */
export function buildAnthropicRequest(request: ChatCompletionRequest, model: ModelInfo, credentials: ProviderCredentials): UpstreamRequest {
  const { system, turns } = mapAnthropicMessages(request.messages);
  const body = compact({
    model: model.upstreamModel,
    max_tokens: maxTokensOf(request) ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    system: system.length > 0 ? system : undefined,
    messages: turns,
    temperature: Math.min(request.temperature, MAX_TEMPERATURE),
    top_p: request.top_p,
    stop_sequences: stopList(request.stop),
    stream: request.stream,
    metadata: request.user ? { user_id: request.user } : undefined,
  });
  return {
    url: `${credentials.baseUrl}/v1/messages`,
    method: 'POST',
    headers: {
      'x-api-key': credentials.apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
      'content-type': 'application/json',
      accept: request.stream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
  };
}
