import { type ModelInfo, PROVIDER_NAMES } from '@conductor/shared';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, FinishReason, Usage } from '@conductor/shared/openai/chat';
import { GatewayError } from '../../gateway-error.ts';
import { countPromptTokens, loadTokenizer, messageText } from '../../tokens/token-count.ts';
import { jsonSchemaOf, structuredFormatOf } from '../common/response-format.ts';
import { jsonExample } from './json-example.ts';

/**
 * The sandbox behind `cc_test_sk_` keys: a deterministic, model-shaped answer that names the
 * model and quotes the caller, counted with the real tokenizer, honouring `max_tokens` and
 * `stop`, and refusing a prompt over the model's context window as the provider would. It never
 * calls an upstream; the gateway meters it as `test` and skips the quota.
 */
export interface SandboxAnswer {
  /** The answer, one decoded token per piece (what a stream sends chunk by chunk). */
  pieces: string[];
  finishReason: FinishReason;
  usage: Usage;
}

const EXCERPT_LENGTH = 160;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH)}…` : flat;
}

/**
 * The full reply text for a request to `model`: the sentence below, or for a `response_format`
 * asking for JSON, that sentence in a JSON object (`{"model", "reply"}`) or in a value of the
 * caller's JSON Schema (json-example.ts).
 */
export function sandboxReplyText(request: ChatCompletionRequest, model: ModelInfo): string {
  const sentence = sandboxSentence(request, model);
  if (!structuredFormatOf(request)) return sentence;
  const schema = jsonSchemaOf(request);
  if (!schema || Object.keys(schema).length === 0) return JSON.stringify({ model: model.id, reply: sentence });
  return JSON.stringify(jsonExample(schema, sentence));
}

function sandboxSentence(request: ChatCompletionRequest, model: ModelInfo): string {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const said = lastUser ? excerpt(messageText(lastUser)) : '';
  const heard =
    said === '' ? `you sent ${request.messages.length} message${request.messages.length === 1 ? '' : 's'}` : `you said "${said}"`;
  return `Sandbox reply from ${model.id} (${PROVIDER_NAMES[model.provider]}): ${heard}. This answer is simulated for a test key; no provider was called and no quota was used.`;
}

function applyStop(text: string, stop: ChatCompletionRequest['stop']): { text: string; stopped: boolean } {
  const stops = stop === undefined ? [] : typeof stop === 'string' ? [stop] : stop;
  let cut = text.length;
  for (const sequence of stops) {
    if (sequence === '') continue;
    const at = text.indexOf(sequence);
    if (at !== -1 && at < cut) cut = at;
  }
  return { text: text.slice(0, cut), stopped: cut < text.length };
}

/** One piece per token, except that tokens splitting a multi-byte character are kept together. */
function decodePieces(tokens: readonly number[], decode: (tokens: readonly number[]) => string): string[] {
  const pieces: string[] = [];
  let group: number[] = [];
  for (const token of tokens) {
    group.push(token);
    const text = decode(group);
    if (!text.endsWith('\uFFFD')) {
      pieces.push(text);
      group = [];
    }
  }
  if (group.length > 0) pieces.push(decode(group));
  return pieces;
}

/**
 * OpenAI's refusal of a request whose prompt and completion budget (`max_tokens`, or
 * `max_completion_tokens`) do not fit the model's context window, with its wording, so code that
 * trims a conversation on `context_length_exceeded` can be tested with a test key. Undefined when
 * the request fits. https://platform.openai.com/docs/guides/error-codes
 */
export function contextLengthRefusal(model: ModelInfo, promptTokens: number, maxTokens: number | undefined): GatewayError | undefined {
  const limit = model.contextLength;
  const requested = promptTokens + (maxTokens ?? 0);
  if (requested <= limit) return undefined;
  const message =
    maxTokens === undefined
      ? `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`
      : `This model's maximum context length is ${limit} tokens. However, you requested ${requested} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`;
  return new GatewayError(400, 'invalid_request_error', 'context_length_exceeded', message, { param: 'messages' });
}

/**
 * The answer, or (thrown, before any reply text is built) the refusal of a request over the
 * model's context window. The reply text is bounded (json-example.ts budgets a schema's example),
 * so tokenising it whole before `max_tokens` cuts it stays cheap.
 */
export async function sandboxAnswer(
  request: ChatCompletionRequest,
  model: ModelInfo,
  maxTokens: number | undefined,
): Promise<SandboxAnswer> {
  const tokenizer = await loadTokenizer();
  const promptTokens = countPromptTokens(tokenizer, request.messages);
  const refusal = contextLengthRefusal(model, promptTokens, maxTokens);
  if (refusal) throw refusal;
  const { text } = applyStop(sandboxReplyText(request, model), request.stop);
  let tokens = tokenizer.encode(text);
  let finishReason: FinishReason = 'stop';
  if (maxTokens !== undefined && tokens.length > maxTokens) {
    tokens = tokens.slice(0, maxTokens);
    finishReason = 'length';
  }
  return {
    pieces: decodePieces(tokens, tokenizer.decode),
    finishReason,
    usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length },
  };
}

export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

export function sandboxCompletion(answer: SandboxAnswer, identity: CompletionIdentity): ChatCompletion {
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.pieces.join('') }, finish_reason: answer.finishReason }],
    usage: answer.usage,
  };
}

/** The OpenAI chunk sequence: role, one chunk per token, finish, and usage when asked for. */
export function sandboxChunks(answer: SandboxAnswer, identity: CompletionIdentity, includeUsage: boolean): ChatCompletionChunk[] {
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finishReason: FinishReason | null): ChatCompletionChunk => ({
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const chunks = [
    chunk({ role: 'assistant', content: '' }, null),
    ...answer.pieces.map((piece) => chunk({ content: piece }, null)),
    chunk({}, answer.finishReason),
  ];
  if (includeUsage)
    chunks.push({
      id: identity.id,
      object: 'chat.completion.chunk',
      created: identity.created,
      model: identity.model,
      choices: [],
      usage: answer.usage,
    });
  return chunks;
}
