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
};
const UNSUPPORTED_NAMES = Object.keys(UNSUPPORTED);

/** The body, validated by the shared schema (its usual shape member by member, plain-request.ts); the first problem is named with its path as `param`. */
export function parseChatRequest(body: unknown): ChatCompletionRequest {
  const request = plainChatRequest(body) ?? schemaParse(body);
  const data = request as ChatCompletionRequest & Record<string, unknown>;
  for (const name of UNSUPPORTED_NAMES) {
    const value = data[name];
    if (value !== undefined && UNSUPPORTED[name]?.(value)) {
      throw new GatewayError(
        400,
        'invalid_request_error',
        'unsupported_parameter',
        `'${name}' is not supported by this gateway (tool-free text chat only).`,
        {
          param: name,
        },
      );
    }
  }
  return request;
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
