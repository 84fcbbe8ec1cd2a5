import { z } from 'zod';
import { STREAM_DEFAULT, TEMPERATURE } from '../constants/limits.ts';

/** The public /v1 wire contract: an OpenAI-compatible chat completion request. */
export const ChatRole = z.enum(['system', 'user', 'assistant', 'developer', 'tool']);
export type ChatRole = z.infer<typeof ChatRole>;

const TextPart = z.object({ type: z.literal('text'), text: z.string().max(1_000_000) });

export const ChatMessage = z.object({
  role: ChatRole,
  content: z.union([z.string().max(1_000_000), z.array(TextPart).max(256)]).nullable(),
  name: z.string().max(64).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const RoutingStrategy = z.enum(['fallback', 'loadbalance', 'cost', 'single']);
export type RoutingStrategy = z.infer<typeof RoutingStrategy>;

export const RouteTarget = z.object({
  provider: z.enum(['openai', 'anthropic', 'google', 'azure', 'mistral', 'cohere']),
  model: z.string().min(1).max(128),
  weight: z.number().positive().max(1000).optional(),
});
export type RouteTarget = z.infer<typeof RouteTarget>;

/** Conductor's routing extension, accepted in the body as `conductor` or via headers. */
export const RoutingPolicy = z.object({
  strategy: RoutingStrategy,
  targets: z.array(RouteTarget).min(1).max(8).optional(),
});
export type RoutingPolicy = z.infer<typeof RoutingPolicy>;

/**
 * An optional member that may also be sent as `null`, which means "absent" (the OpenAI API
 * accepts `null` for every optional parameter, and its SDKs' types allow it): `null` and a
 * missing member both come out as undefined, or as `fallback` when one is given.
 */
function nullable<T extends z.ZodType>(schema: T): z.ZodPipe<z.ZodOptional<z.ZodNullable<T>>, z.ZodTransform<z.output<T> | undefined>>;
function nullable<T extends z.ZodType>(
  schema: T,
  fallback: z.output<T>,
): z.ZodPipe<z.ZodOptional<z.ZodNullable<T>>, z.ZodTransform<z.output<T>>>;
function nullable<T extends z.ZodType>(schema: T, fallback?: z.output<T>) {
  return schema.nullish().transform((value) => value ?? fallback);
}

/** OpenAI's rule for `response_format.json_schema.name`. */
export const JSON_SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `response_format`: plain text (the default), JSON mode (`json_object`: the answer is one JSON
 * value), or a structured output held to the caller's JSON Schema (`json_schema`).
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format
 */
export const ResponseFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      json_schema: z.object(
        {
          name: z.string().regex(JSON_SCHEMA_NAME, 'json_schema.name must be 1 to 64 letters, digits, underscores or dashes'),
          description: z.string().max(4096).nullish(),
          schema: z.record(z.string(), z.unknown()).nullish(),
          strict: z.boolean().nullish(),
        },
        { error: "json_schema (an object with a name and a schema) is required when type is 'json_schema'" },
      ),
    }),
  ],
  { error: "response_format.type must be 'text', 'json_object' or 'json_schema'" },
);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1, 'model is required').max(128),
    messages: z.array(ChatMessage).min(1, 'messages must contain at least one message').max(2048),
    temperature: nullable(z.number().min(TEMPERATURE.min).max(TEMPERATURE.max), TEMPERATURE.default),
    top_p: nullable(z.number().min(0).max(1)),
    max_tokens: nullable(z.number().int().positive().max(1_000_000)),
    max_completion_tokens: nullable(z.number().int().positive().max(1_000_000)),
    stream: nullable(z.boolean(), STREAM_DEFAULT),
    stream_options: nullable(z.object({ include_usage: z.boolean().optional() })),
    stop: nullable(z.union([z.string().max(256), z.array(z.string().max(256)).max(4)])),
    presence_penalty: nullable(z.number().min(-2).max(2)),
    frequency_penalty: nullable(z.number().min(-2).max(2)),
    n: nullable(z.literal(1)),
    user: nullable(z.string().max(256)),
    seed: nullable(z.number().int()),
    response_format: nullable(ResponseFormat),
    conductor: nullable(RoutingPolicy),
  })
  .loose();
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;
export type ChatCompletionRequestInput = z.input<typeof ChatCompletionRequest>;

export const FinishReason = z.enum(['stop', 'length', 'content_filter', 'tool_calls']);
export type FinishReason = z.infer<typeof FinishReason>;

export const Usage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string().nullable() }),
      finish_reason: FinishReason.nullable(),
    }),
  ),
  usage: Usage,
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      finish_reason: FinishReason.nullable(),
    }),
  ),
  usage: Usage.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

export const OpenAiErrorType = z.enum([
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'rate_limit_error',
  'insufficient_quota',
  'api_error',
  'upstream_error',
  'timeout_error',
]);
export type OpenAiErrorType = z.infer<typeof OpenAiErrorType>;

export const OpenAiErrorEnvelope = z.object({
  error: z.object({
    message: z.string(),
    type: OpenAiErrorType,
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiErrorEnvelope = z.infer<typeof OpenAiErrorEnvelope>;
