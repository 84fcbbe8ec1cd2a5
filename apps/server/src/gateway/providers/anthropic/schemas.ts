import { z } from 'zod';

/** https://docs.anthropic.com/en/api/messages#response-usage */
export const AnthropicUsage = z.object({
  input_tokens: z.number().int().nonnegative().nullable().optional(),
  output_tokens: z.number().int().nonnegative().nullable().optional(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullable().optional(),
  cache_read_input_tokens: z.number().int().nonnegative().nullable().optional(),
});
export type AnthropicUsage = z.infer<typeof AnthropicUsage>;

const ContentBlock = z.object({ type: z.string(), text: z.string().optional() });

/** https://docs.anthropic.com/en/api/messages — the Message object. */
export const AnthropicMessage = z.object({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  content: z.array(ContentBlock),
  stop_reason: z.string().nullable(),
  usage: AnthropicUsage,
});

/** https://docs.anthropic.com/en/api/messages-streaming#event-types */
export const AnthropicStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: z.object({ id: z.string(), usage: AnthropicUsage.optional() }) }),
  z.object({ type: z.literal('content_block_start'), index: z.number().int(), content_block: ContentBlock }),
  z.object({
    type: z.literal('content_block_delta'),
    index: z.number().int(),
    delta: z.object({ type: z.string(), text: z.string().optional() }),
  }),
  z.object({ type: z.literal('content_block_stop'), index: z.number().int() }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullable().optional() }),
    usage: AnthropicUsage.optional(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('error'), error: z.object({ type: z.string(), message: z.string() }) }),
]);
export type AnthropicStreamEvent = z.infer<typeof AnthropicStreamEvent>;

/** https://docs.anthropic.com/en/api/errors#error-shapes */
export const AnthropicErrorBody = z.object({
  type: z.literal('error'),
  error: z.object({ type: z.string(), message: z.string() }),
});
