import { z } from 'zod';
import { isRecord } from '../../../lib/is-record.ts';

/**
 * OpenAI-compatible wire bodies (OpenAI, Azure OpenAI, Mistral), parsed loosely: only the members
 * the gateway reads are checked, the rest pass unnoticed.
 * https://platform.openai.com/docs/api-reference/chat/object
 */
export const UpstreamUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative().default(0),
  total_tokens: z.number().int().nonnegative().optional(),
});

const TextContent = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() })).transform((parts) => parts.map((part) => part.text ?? '').join('')),
]);

export const UpstreamCompletion = z.object({
  id: z.string(),
  created: z.number().int().optional(),
  choices: z
    .array(
      z.object({
        index: z.number().int().default(0),
        message: z.object({ content: TextContent.nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: UpstreamUsage.nullable().optional(),
});
export type UpstreamCompletion = z.infer<typeof UpstreamCompletion>;

/** https://platform.openai.com/docs/api-reference/chat-streaming/streaming */
export const UpstreamChunk = z.object({
  id: z.string().optional(),
  created: z.number().int().optional(),
  choices: z
    .array(
      z.object({
        index: z.number().int().default(0),
        delta: z.object({ role: z.string().nullable().optional(), content: TextContent.nullable().optional() }).default({}),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .default([]),
  usage: UpstreamUsage.nullable().optional(),
});
export type UpstreamChunk = z.infer<typeof UpstreamChunk>;

const optionalString = (value: unknown) => value === undefined || value === null || typeof value === 'string';

const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/** A usage block both token counts of which are given (zod would default a missing completion count). */
function plainUsage(usage: unknown): boolean {
  if (!isRecord(usage) || !count(usage.prompt_tokens) || !count(usage.completion_tokens)) return false;
  return usage.total_tokens === undefined || count(usage.total_tokens);
}

/**
 * The streaming hot path of `UpstreamChunk.parse`: the chunks every answer is made of (string
 * deltas, and the closing usage block of plain token counts) are checked member by member and
 * used as they are, without the copy a zod parse makes. It accepts only what `UpstreamChunk`
 * accepts, and reads the same (schemas.test.ts holds the two together); any other shape (content
 * parts, anything unexpected) returns undefined and goes through `UpstreamChunk` itself.
 */
export function contentChunk(data: unknown): UpstreamChunk | undefined {
  if (!isRecord(data)) return undefined;
  const { id, created, choices, usage } = data;
  if ((id !== undefined && typeof id !== 'string') || (created !== undefined && !Number.isSafeInteger(created))) return undefined;
  if (usage !== undefined && usage !== null && !plainUsage(usage)) return undefined;
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices) {
    if (!isRecord(choice) || !Number.isSafeInteger(choice.index) || !optionalString(choice.finish_reason)) return undefined;
    const delta = choice.delta;
    if (!isRecord(delta) || !optionalString(delta.role) || !optionalString(delta.content)) return undefined;
  }
  return data as UpstreamChunk;
}

/**
 * The hot path of `UpstreamCompletion.parse`, on the same terms as `contentChunk`: a completion
 * with string (or null) message content and a full usage block is used as it is; anything else
 * goes through `UpstreamCompletion`.
 */
export function plainCompletion(data: unknown): UpstreamCompletion | undefined {
  if (!isRecord(data)) return undefined;
  const { id, created, choices, usage } = data;
  if (typeof id !== 'string' || (created !== undefined && !Number.isSafeInteger(created))) return undefined;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  for (const choice of choices) {
    if (!isRecord(choice) || !Number.isSafeInteger(choice.index) || !optionalString(choice.finish_reason)) return undefined;
    const message = choice.message;
    if (!isRecord(message) || !optionalString(message.content)) return undefined;
  }
  if (usage !== undefined && usage !== null && !plainUsage(usage)) return undefined;
  return data as UpstreamCompletion;
}

/**
 * OpenAI and Azure: `{"error": {"message", "type", "param", "code"}}`
 * (https://platform.openai.com/docs/guides/error-codes). Mistral answers `{"message": …}`,
 * `{"detail": "Unauthorized"}`, or for validation errors `{"object": "error", "message": {"detail": [{"msg": …}]}, "type": …}`
 * (https://docs.mistral.ai/api/).
 */
export const UpstreamErrorBody = z.object({
  error: z
    .object({
      message: z.string().nullable().optional(),
      type: z.string().nullable().optional(),
      code: z.union([z.string(), z.number()]).nullable().optional(),
      /** The request member at fault; read only when it is a string (never a reason to drop the message). */
      param: z.unknown().optional(),
    })
    .optional(),
  message: z.unknown().optional(),
  type: z.string().nullable().optional(),
  code: z.union([z.string(), z.number()]).nullable().optional(),
  detail: z.unknown().optional(),
});
export type UpstreamErrorBody = z.infer<typeof UpstreamErrorBody>;

const ValidationDetail = z.object({
  detail: z.array(z.object({ msg: z.string(), loc: z.array(z.union([z.string(), z.number()])).optional() })),
});

/** A readable line from a message that is a string, a `{detail: [...]}` validation report, or absent. */
export function describeErrorMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const validation = ValidationDetail.safeParse(value);
  if (!validation.success) return undefined;
  return validation.data.detail.map((entry) => (entry.loc ? `${entry.loc.join('.')}: ${entry.msg}` : entry.msg)).join('; ');
}
