import { ChatCompletionRequest } from '@conductor/shared/openai/chat';
import { SANDBOX_LATENCY_HEADER, SANDBOX_MAX_LATENCY_MS } from '@conductor/shared/openai/models';
import { GatewayError } from '../gateway-error.ts';
import { plainChatRequest } from './plain-request.ts';

/** Members of the OpenAI API this tool-free gateway does not serve: refused rather than silently dropped. */
const UNSUPPORTED = ['tools', 'tool_choice', 'functions', 'function_call', 'parallel_tool_calls', 'audio', 'modalities'] as const;

/** The body, validated by the shared schema (its usual shape member by member, plain-request.ts); the first problem is named with its path as `param`. */
export function parseChatRequest(body: unknown): ChatCompletionRequest {
  const request = plainChatRequest(body) ?? schemaParse(body);
  const data = request as ChatCompletionRequest & Record<string, unknown>;
  for (const name of UNSUPPORTED) {
    if (data[name] !== undefined && data[name] !== null) {
      throw new GatewayError(
        400,
        'invalid_request_error',
        'unsupported_parameter',
        `'${name}' is not supported by this gateway (tool-free chat only).`,
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
