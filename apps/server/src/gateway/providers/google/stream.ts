import { ChunkSequence, completionId, unixSeconds } from '../common/chunks.ts';
import { ProviderProtocolError, ProviderStreamError } from '../common/stream-error.ts';
import type { AdapterContext, SseEvent, StreamParser, StreamStep } from '../types.ts';
import { mapGeminiError } from './errors.ts';
import { candidateText, mapGeminiUsage, responseFinishReason } from './response.ts';
import { GeminiErrorBody, GeminiResponse } from './schemas.ts';

/**
 * `streamGenerateContent?alt=sse` sends one `data: {GenerateContentResponse}` per event, each with
 * new text and the usage so far; the last carries `finishReason` (there is no `[DONE]` marker).
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * https://ai.google.dev/gemini-api/docs/text-generation#streaming-responses
 */
export function createGeminiStreamParser(publicModel: string, context: AdapterContext): StreamParser {
  const sequence = new ChunkSequence(publicModel, () => completionId(context), unixSeconds(context));
  return {
    push(event: SseEvent): StreamStep {
      if (event.data.trim() === '') return { chunks: [], done: false };
      let json: unknown;
      try {
        json = JSON.parse(event.data);
      } catch {
        throw new ProviderProtocolError('Google', 'stream event was not JSON');
      }
      const failure = GeminiErrorBody.safeParse(json);
      if (failure.success) throw new ProviderStreamError(mapGeminiError(failure.data.error.code ?? 500, json, {}));
      const parsed = GeminiResponse.safeParse(json);
      if (!parsed.success) throw new ProviderProtocolError('Google', 'stream event did not match the documented shape');
      const response = parsed.data;
      sequence.identify(response.responseId, undefined);
      const chunks = sequence.content(candidateText(response));
      const finish = responseFinishReason(response);
      if (!finish) return { chunks, done: false };
      chunks.push(...sequence.finish(finish));
      const usage = mapGeminiUsage(response.usageMetadata);
      chunks.push(sequence.usage(usage));
      return { chunks, usage, done: true };
    },
  };
}
