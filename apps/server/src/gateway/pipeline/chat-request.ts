import { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import { SANDBOX_LATENCY_HEADER, SANDBOX_MAX_LATENCY_MS } from '@conductor/shared/openai/models';
import { GatewayError } from '../gateway-error.ts';
import { plainChatRequest } from './plain-request.ts';
import { isRecord } from '../../lib/is-record.ts';

const sent = (value: unknown) => value !== undefined && value !== null;

/**
 * Members of the OpenAI API this tool-free, text-only gateway does not serve, each with the test
 * of a value that asks for them: refused rather than silently dropped. `null` and the values that
 * ask for the default behaviour (`logprobs: false`, `modalities: ["text"]`, an empty
 * `logit_bias`) pass. (`response_format` is served: the shared schema validates it.)
 */
const UNSUPPORTED: Readonly<Record<string, (value: unknown) => boolean>> = {
  tools: sent,
  tool_choice: sent,
  functions: sent,
  function_call: sent,
  parallel_tool_calls: sent,
  audio: sent,
  modalities: (value) => sent(value) && !(Array.isArray(value) && value.length === 1 && value[0] === 'text'),
  logprobs: (value) => sent(value) && value !== false,
  top_logprobs: sent,
  logit_bias: (value) => sent(value) && !(isRecord(value) && Object.keys(value).length === 0),
  prediction: sent,
  web_search_options: sent,
  // Stored completions (and distillation/evals on them) are OpenAI's product, which nothing here stores for.
  store: (value) => sent(value) && value !== false,
  // A processing tier changes price and latency; only the upstream's default is served.
  service_tier: (value) => sent(value) && value !== 'auto' && value !== 'default',
  // For reasoning models only: none in the catalogue, and OpenAI refuses them for the others.
  reasoning_effort: sent,
  verbosity: sent,
};
const UNSUPPORTED_NAMES = Object.keys(UNSUPPORTED);

const unsupported = (param: string, message: string) =>
  new GatewayError(400, 'invalid_request_error', 'unsupported_parameter', message, { param });
const invalid = (param: string, message: string) => new GatewayError(400, 'invalid_request_error', 'invalid_request', message, { param });

/** The body, validated by the shared schema (its usual shape member by member, plain-request.ts); the first problem is named with its path as `param`. */
export function parseChatRequest(body: unknown): ChatCompletionRequest {
  const request = plainChatRequest(body) ?? schemaParse(body);
  const data = request as ChatCompletionRequest & Record<string, unknown>;
  for (const name of UNSUPPORTED_NAMES) {
    const value = data[name];
    if (value !== undefined && UNSUPPORTED[name]?.(value)) {
      throw unsupported(name, `'${name}' is not supported by this gateway (tool-free text chat only).`);
    }
  }
  checkMessages(body, request);
  if (request.stream_options !== undefined && request.stream !== true) {
    // As OpenAI answers: the options of a stream that is not asked for are a mistake, not a no-op.
    throw invalid('stream_options', "'stream_options' is only allowed when 'stream' is true.");
  }
  return request;
}

/**
 * What the schema's message shape cannot say. A conversation with tool calls in it (an
 * assistant turn's `tool_calls` or `function_call`, a `tool` turn's result) is refused like
 * `tools` itself: passing it on without them would show the model a conversation it never had.
 * Content may be null only on an assistant turn, and a content array must hold a part: OpenAI
 * refuses both otherwise.
 */
function checkMessages(body: unknown, request: ChatCompletionRequest): void {
  // The parsed messages keep only role, content and name: the members they dropped are read from the body.
  const sentMessages = isRecord(body) && Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  request.messages.forEach((message, index) => {
    const raw = sentMessages[index];
    if (isRecord(raw)) {
      for (const member of ['tool_calls', 'function_call'] as const) {
        if (sent(raw[member]) && !(Array.isArray(raw[member]) && raw[member].length === 0)) {
          throw unsupported(
            `messages.${index}.${member}`,
            `Messages with '${member}' are not supported by this gateway (tool-free text chat only).`,
          );
        }
      }
    }
    if (message.role === 'tool') {
      throw unsupported(
        `messages.${index}.role`,
        "Messages with role 'tool' (tool results) are not supported by this gateway (tool-free text chat only).",
      );
    }
    if (message.content === null && message.role !== 'assistant') {
      throw invalid(
        `messages.${index}.content`,
        `Invalid body field 'messages.${index}.content': a ${message.role} message needs content.`,
      );
    }
    if (Array.isArray(message.content) && message.content.length === 0) {
      throw invalid(
        `messages.${index}.content`,
        `Invalid body field 'messages.${index}.content': a content array must hold at least one part.`,
      );
    }
  });
}

function schemaParse(body: unknown): ChatCompletionRequest {
  const result = ChatCompletionRequest.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.map(String).join('.') ?? '';
    const message = issue?.message ?? 'Invalid request';
    throw new GatewayError(
      400,
      'invalid_request_error',
      'invalid_request',
      path === '' ? `Invalid request body: ${message}` : `Invalid body field '${path}': ${message}`,
      { param: path === '' ? null : path },
    );
  }
  return result.data;
}

/** `max_completion_tokens` is the newer name of `max_tokens`; either may arrive. */
export function maxTokensOf(request: ChatCompletionRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens;
}

/** The request with a lower completion budget (quota nearly spent). */
export function withMaxTokens(request: ChatCompletionRequest, cap: number): ChatCompletionRequest {
  if (request.max_completion_tokens !== undefined) return { ...request, max_completion_tokens: cap, max_tokens: undefined };
  return { ...request, max_tokens: cap };
}

/** `x-conductor-sandbox-latency-ms`: whole milliseconds, 0 to the cap. */
export function sandboxLatency(value: string | string[] | undefined): number {
  if (value === undefined) return 0;
  const text = Array.isArray(value) ? (value[0] ?? '') : value;
  if (!/^\d{1,6}$/.test(text.trim()) || Number(text) > SANDBOX_MAX_LATENCY_MS) {
    throw new GatewayError(
      400,
      'invalid_request_error',
      'invalid_sandbox_latency',
      `${SANDBOX_LATENCY_HEADER} must be a whole number of milliseconds from 0 to ${SANDBOX_MAX_LATENCY_MS}.`,
      { param: SANDBOX_LATENCY_HEADER },
    );
  }
  return Number(text);
}

export function headerString(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
