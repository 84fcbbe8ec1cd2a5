import type { ChatCompletion, FinishReason, Usage } from '@conductor/shared/openai/chat';
import { completionId, completionOf, unixSeconds, usageOf } from '../common/chunks.ts';
import { ProviderProtocolError, ProviderStreamError } from '../common/stream-error.ts';
import type { AdapterContext } from '../types.ts';
import { CohereChatResponse, type CohereUsage } from './schemas.ts';

/**
 * https://docs.cohere.com/reference/chat#response.body.finish_reason — `ERROR` and `TIMEOUT` are
 * failures, not endings (see `failureOf`).
 */
export function mapCohereFinishReason(reason: string | undefined): FinishReason | null {
  switch (reason) {
    case undefined:
      return null;
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    default:
      // COMPLETE, STOP_SEQUENCE
      return 'stop';
  }
}

/** A generation that ended in `ERROR` or `TIMEOUT` is an upstream failure the router may retry. */
export function failureOf(reason: string | undefined, detail?: string | null): ProviderStreamError | undefined {
  if (reason !== 'ERROR' && reason !== 'TIMEOUT') return undefined;
  const timeout = reason === 'TIMEOUT';
  return new ProviderStreamError({
    status: timeout ? 504 : 502,
    type: timeout ? 'timeout_error' : 'upstream_error',
    disposition: 'retryable',
    message: `Cohere: ${detail || (timeout ? 'the generation timed out' : 'the generation failed')}`,
  });
}

/** Billed units are what the account pays for; `tokens` adds Cohere's own prompt scaffolding. https://docs.cohere.com/reference/chat#response.body.usage */
export function mapCohereUsage(usage: CohereUsage | undefined): Usage {
  const counts = usage?.billed_units ?? usage?.tokens;
  return usageOf(Math.round(counts?.input_tokens ?? 0), Math.round(counts?.output_tokens ?? 0));
}

/** https://docs.cohere.com/reference/chat#response */
export function parseCohereResponse(body: unknown, publicModel: string, context: AdapterContext): ChatCompletion {
  const parsed = CohereChatResponse.safeParse(body);
  if (!parsed.success) throw new ProviderProtocolError('Cohere', 'chat response did not match the documented shape');
  const response = parsed.data;
  const failure = failureOf(response.finish_reason);
  if (failure) throw failure;
  const text = (response.message.content ?? [])
    .filter((part) => part.type === undefined || part.type === 'text')
    .map((part) => part.text ?? '')
    .join('');
  return completionOf({
    id: response.id || completionId(context),
    created: unixSeconds(context),
    model: publicModel,
    content: text,
    finishReason: mapCohereFinishReason(response.finish_reason),
    usage: mapCohereUsage(response.usage),
  });
}
