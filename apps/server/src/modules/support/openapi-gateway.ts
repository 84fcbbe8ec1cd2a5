import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, OpenAiErrorEnvelope } from '@conductor/shared/openai/chat';

/** The tag the gateway's routes carry: every one of them needs an API key. */
export const GATEWAY_TAG = 'Gateway';

const ERROR_RESPONSES: Record<number, string> = {
  400: 'Invalid request (`invalid_request_error`): a body field, the routing policy or an unsupported parameter.',
  401: 'Missing, invalid, revoked or expired API key (`authentication_error`).',
  403: 'The key lacks the `api` permission (`permission_error`).',
  404: 'Unknown model (`not_found_error`).',
  409: 'The provider reported a conflict (`api_error`, transient) after retries and failover.',
  413: 'The body is over 8 MB (`request_too_large`).',
  415: 'The body is not `application/json` (`unsupported_media_type`).',
  429: 'Plan rate limit (`rate_limit_error`) or monthly token quota (`insufficient_quota`) reached, or too many refused keys from this address; see the Retry-After header.',
  500: 'Unexpected failure (`api_error`, `internal_error`).',
  502: 'The upstream provider failed (`upstream_error`) after retries and failover.',
  503: 'No healthy provider can serve the request right now (`upstream_error`); see Retry-After.',
  504: 'The upstream provider timed out (`timeout_error`).',
};
/** Which errors each gateway operation can answer (any other: 401, 403, 429 from the key checks, and 500). */
const ROUTE_ERRORS: Record<string, readonly number[]> = {
  'POST /v1/chat/completions': [400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 503, 504],
  'GET /v1/models/:model': [401, 403, 404, 429, 500],
};
const KEY_CHECK_ERRORS = [401, 403, 429, 500] as const;

const shape = ChatCompletionRequest.shape;
/** The chat request with field descriptions for the document; validation stays the shared schema's. */
const DescribedChatRequest = ChatCompletionRequest.extend({
  model: shape.model.describe('A model id or alias from GET /v1/models, e.g. `gpt-4o-mini` or `claude-3-5-sonnet`.'),
  messages: shape.messages.describe(
    'The conversation, oldest first: `{ role, content }` with role `system`, `developer`, `user` or `assistant` (tools are not served: a `tool` message or an assistant message with `tool_calls` is refused with 400 `unsupported_parameter`).',
  ),
  temperature: shape.temperature.describe('Sampling temperature from 0 (focused) to 2 (varied).'),
  top_p: shape.top_p.describe('Nucleus sampling; change this or `temperature`, not both.'),
  max_tokens: shape.max_tokens.describe('Upper bound on generated tokens; also sizes the monthly-quota reservation (1,024 when absent).'),
  max_completion_tokens: shape.max_completion_tokens.describe('Newer name of `max_tokens`; send one of the two.'),
  stream: shape.stream.describe('Stream the answer as Server-Sent Events (`chat.completion.chunk` objects, then `data: [DONE]`).'),
  stream_options: shape.stream_options.describe('`{ include_usage: true }` adds a last chunk with the usage totals.'),
  stop: shape.stop.describe('Up to 4 sequences that end the answer.'),
  presence_penalty: shape.presence_penalty.describe('From -2 to 2, for providers that support it.'),
  frequency_penalty: shape.frequency_penalty.describe('From -2 to 2, for providers that support it.'),
  n: shape.n.describe('Only 1 is supported.'),
  user: shape.user.describe('An opaque id of your end user, forwarded to the providers that take it (OpenAI, Azure OpenAI, Anthropic).'),
  seed: shape.seed.describe('Best-effort determinism, for providers that support it.'),
  response_format: shape.response_format.describe(
    'JSON output: `{ type: "json_object" }` (JSON mode) or `{ type: "json_schema", json_schema: { name, schema, strict? } }` (held to your JSON Schema), for the models that have it (see the Completions docs); `{ type: "text" }` is the default.',
  ),
  conductor: shape.conductor.describe(
    'Routing policy: `{ strategy: "single" | "fallback" | "loadbalance" | "cost", targets?: [{ provider, model, weight? }] }`. The `x-conductor-routing` header takes precedence.',
  ),
});

const json = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });

/**
 * Bodies the gateway validates inside its handler (so that every outcome is metered) are not
 * on the route's schema; the document describes them from the same shared contracts.
 */
const DOCUMENTED: Record<string, { body?: z.ZodType; ok?: FastifySchema['response'] }> = {
  'POST /v1/chat/completions': {
    body: DescribedChatRequest,
    ok: {
      200: {
        description:
          'The completion (JSON), or with `stream: true` a Server-Sent Events stream of `chat.completion.chunk` objects ending with `data: [DONE]`.',
        content: {
          'application/json': { schema: json(ChatCompletion, 'output') },
          'text/event-stream': {
            schema: {
              type: 'string',
              description: `Each event is \`data: <JSON>\` where the JSON is: ${JSON.stringify(json(ChatCompletionChunk, 'output'))}`,
            },
          },
        },
      },
    },
  },
};

/** Adds to a gateway route (after the zod transform): Bearer security, the error responses, documented-only bodies. */
export function describeGatewayRoute(
  method: string,
  url: string,
  schema: FastifySchema & { tags?: string[]; security?: unknown },
): FastifySchema {
  if (!schema.tags?.includes(GATEWAY_TAG)) return schema;
  const extra = DOCUMENTED[`${method} ${url}`];
  const errorSchema = json(OpenAiErrorEnvelope, 'output');
  const errors = Object.fromEntries(
    (ROUTE_ERRORS[`${method} ${url}`] ?? KEY_CHECK_ERRORS).map((status) => [
      String(status),
      { description: ERROR_RESPONSES[status], content: { 'application/json': { schema: errorSchema } } },
    ]),
  );
  return {
    ...schema,
    security: schema.security ?? [{ bearerAuth: [] }],
    ...(extra?.body && !schema.body ? { body: json(extra.body, 'input') } : {}),
    response: { ...(extra?.ok ?? {}), ...(schema.response as object | undefined), ...errors },
  } as FastifySchema;
}
