import { z } from 'zod';

const TokenCounts = z.object({
  input_tokens: z.number().nonnegative().optional(),
  output_tokens: z.number().nonnegative().optional(),
});

/** https://docs.cohere.com/reference/chat#response.body.usage */
export const CohereUsage = z.object({ billed_units: TokenCounts.optional(), tokens: TokenCounts.optional() });
export type CohereUsage = z.infer<typeof CohereUsage>;

const TextContent = z.object({ type: z.string().optional(), text: z.string().optional() });

/** https://docs.cohere.com/reference/chat#response */
export const CohereChatResponse = z.object({
  id: z.string(),
  finish_reason: z.string(),
  message: z.object({ role: z.string().optional(), content: z.array(TextContent).optional() }),
  usage: CohereUsage.optional(),
});

/** https://docs.cohere.com/reference/chat-stream and https://docs.cohere.com/docs/streaming */
export const CohereStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message-start'), id: z.string().optional() }),
  z.object({
    type: z.literal('content-start'),
    delta: z.object({ message: z.object({ content: TextContent.optional() }).optional() }).optional(),
  }),
  z.object({
    type: z.literal('content-delta'),
    delta: z.object({ message: z.object({ content: TextContent.optional() }).optional() }).optional(),
  }),
  z.object({ type: z.literal('content-end') }),
  z.object({
    type: z.literal('message-end'),
    delta: z
      .object({ finish_reason: z.string().optional(), error: z.string().nullable().optional(), usage: CohereUsage.optional() })
      .optional(),
  }),
]);
export type CohereStreamEvent = z.infer<typeof CohereStreamEvent>;

/** https://docs.cohere.com/reference/errors — `{"message": "…"}` (some responses add an `id`). */
export const CohereErrorBody = z.object({ message: z.string(), id: z.string().optional() });
