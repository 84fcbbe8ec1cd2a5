import { z } from 'zod';

/** https://ai.google.dev/api/generate-content#UsageMetadata */
export const GeminiUsage = z.object({
  promptTokenCount: z.number().int().nonnegative().optional(),
  candidatesTokenCount: z.number().int().nonnegative().optional(),
  thoughtsTokenCount: z.number().int().nonnegative().optional(),
  totalTokenCount: z.number().int().nonnegative().optional(),
});
export type GeminiUsage = z.infer<typeof GeminiUsage>;

/** https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse */
export const GeminiResponse = z.object({
  candidates: z
    .array(
      z.object({
        content: z
          .object({ parts: z.array(z.object({ text: z.string().optional(), thought: z.boolean().optional() })).default([]) })
          .optional(),
        finishReason: z.string().optional(),
        index: z.number().int().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
  usageMetadata: GeminiUsage.optional(),
  responseId: z.string().optional(),
});
export type GeminiResponse = z.infer<typeof GeminiResponse>;

/** https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes — Google's `google.rpc.Status` envelope. */
export const GeminiErrorBody = z.object({
  error: z.object({
    code: z.number().int().optional(),
    message: z.string().optional(),
    status: z.string().optional(),
    details: z
      .array(z.looseObject({ '@type': z.string().optional(), reason: z.string().optional(), retryDelay: z.string().optional() }))
      .optional(),
  }),
});
export type GeminiErrorBody = z.infer<typeof GeminiErrorBody>;
