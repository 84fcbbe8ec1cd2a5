import type { ChatCompletion, FinishReason, Usage } from '@conductor/shared/openai/chat';
import { completionId, completionOf, unixSeconds, usageOf } from '../common/chunks.ts';
import { ProviderProtocolError } from '../common/stream-error.ts';
import type { AdapterContext } from '../types.ts';
import { GeminiResponse, type GeminiUsage } from './schemas.ts';

/**
 * https://ai.google.dev/api/generate-content#FinishReason — the reasons that withhold content
 * (safety, recitation, blocklists, PII, prohibited or unsafe images) are `content_filter`. This
 * API declares no tools, so the tool-call endings (`MALFORMED_FUNCTION_CALL`,
 * `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`) come with no `tool_calls` and end the answer as
 * `stop`, like `STOP`, `LANGUAGE`, `OTHER` and reasons added later.
 */
export function mapGeminiFinishReason(reason: string | undefined): FinishReason | null {
  switch (reason) {
    case undefined:
    case 'FINISH_REASON_UNSPECIFIED':
      return null;
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** Thinking tokens are billed as output. https://ai.google.dev/api/generate-content#UsageMetadata */
export function mapGeminiUsage(usage: GeminiUsage | undefined): Usage {
  const prompt = usage?.promptTokenCount ?? 0;
  const completion = (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0);
  return usageOf(prompt, completion, usage?.totalTokenCount ?? prompt + completion);
}

/** The visible text of the first candidate (thought summaries are not part of the answer). */
export function candidateText(response: GeminiResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? '')
    .join('');
}

/** A finish reason for the response: the candidate's, or `content_filter` when the prompt itself was blocked. */
export function responseFinishReason(response: GeminiResponse): FinishReason | null {
  const candidate = response.candidates?.[0];
  if (!candidate && response.promptFeedback?.blockReason) return 'content_filter';
  return mapGeminiFinishReason(candidate?.finishReason);
}

/** https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse */
export function parseGeminiResponse(body: unknown, publicModel: string, context: AdapterContext): ChatCompletion {
  const parsed = GeminiResponse.safeParse(body);
  if (!parsed.success) throw new ProviderProtocolError('Google', 'generateContent response did not match the documented shape');
  const response = parsed.data;
  return completionOf({
    id: response.responseId ?? completionId(context),
    created: unixSeconds(context),
    model: publicModel,
    content: candidateText(response),
    finishReason: responseFinishReason(response) ?? 'stop',
    usage: mapGeminiUsage(response.usageMetadata),
  });
}
