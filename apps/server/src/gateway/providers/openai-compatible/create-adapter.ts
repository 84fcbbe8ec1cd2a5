import type { ProviderId } from '@conductor/shared';
import type { ChatCompletion } from '@conductor/shared/openai/chat';
import { ChunkSequence, completionId, completionOf, unixSeconds, usageOf } from '../common/chunks.ts';
import { classifyUpstreamError, normalizeErrorBody, textExcerpt } from '../common/errors.ts';
import { retryAfterFromHeaders, retryAfterFromResetHeaders } from '../common/retry-after.ts';
import { ProviderProtocolError, ProviderStreamError } from '../common/stream-error.ts';
import type { AdapterContext, ProviderAdapter, ProviderCredentials, SseEvent, StreamParser, StreamStep, UpstreamError } from '../types.ts';
import { mapOpenAiFinishReason } from './finish-reason.ts';
import { buildOpenAiBody, type OpenAiBodyOptions } from './request.ts';
import {
  contentChunk,
  describeErrorMessage,
  plainCompletion,
  type UpstreamChunk,
  UpstreamChunk as UpstreamChunkSchema,
  type UpstreamCompletion,
  UpstreamCompletion as UpstreamCompletionSchema,
  UpstreamErrorBody,
} from './schemas.ts';

type Headers = Record<string, string | undefined>;

export interface OpenAiCompatibleConfig {
  id: ProviderId;
  /** Display name used in error messages. */
  name: string;
  defaultBaseUrl: string;
  allowedHostSuffixes: readonly string[];
  body: OpenAiBodyOptions;
  /** The chat completions URL for a base URL and upstream model. */
  url(credentials: ProviderCredentials, upstreamModel: string): string;
  /** The authentication header(s). */
  authHeaders(credentials: ProviderCredentials): Record<string, string>;
}

function upstreamErrorMessage(body: UpstreamErrorBody): { message?: string; code?: string } {
  const message = body.error?.message ?? describeErrorMessage(body.message) ?? describeErrorMessage(body.detail);
  const code = body.error?.code ?? body.error?.type ?? body.code ?? body.type ?? undefined;
  return { message: message ?? undefined, code: code === undefined || code === null ? undefined : String(code) };
}

/** https://platform.openai.com/docs/guides/error-codes/api-errors */
export function mapOpenAiCompatibleError(
  name: string,
  status: number,
  rawBody: unknown,
  headers: Headers,
  now?: () => number,
): UpstreamError {
  const body = normalizeErrorBody(rawBody);
  const parsed = UpstreamErrorBody.safeParse(body);
  const { message, code } = parsed.success ? upstreamErrorMessage(parsed.data) : { message: textExcerpt(body), code: undefined };
  const retryAfterMs = retryAfterFromHeaders(headers, now) ?? (status === 429 ? retryAfterFromResetHeaders(headers) : undefined);
  return classifyUpstreamError(status, { providerName: name, message, code, retryAfterMs });
}

function parsedCompletion(name: string, body: unknown): UpstreamCompletion {
  const parsed = UpstreamCompletionSchema.safeParse(body);
  if (!parsed.success) throw new ProviderProtocolError(name, 'chat completion did not match the documented shape');
  return parsed.data;
}

/** https://platform.openai.com/docs/api-reference/chat/object */
export function parseOpenAiCompletion(name: string, body: unknown, publicModel: string, context: AdapterContext): ChatCompletion {
  const completion = plainCompletion(body) ?? parsedCompletion(name, body);
  const choice = completion.choices[0]!;
  const usage = completion.usage;
  return completionOf({
    id: completion.id || completionId(context),
    created: completion.created ?? unixSeconds(context),
    model: publicModel,
    content: choice.message.content ?? null,
    finishReason: mapOpenAiFinishReason(choice.finish_reason),
    usage: usage ? usageOf(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) : usageOf(0, 0),
  });
}

/** An in-stream `{"error": …}` payload (OpenAI sends these instead of a chunk when generation fails mid-way). */
function inStreamError(name: string, data: unknown): ProviderStreamError | undefined {
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  return new ProviderStreamError(mapOpenAiCompatibleError(name, 500, data, {}));
}

function parseChunk(name: string, data: unknown): UpstreamChunk {
  const fast = contentChunk(data);
  if (fast) return fast;
  const parsed = UpstreamChunkSchema.safeParse(data);
  if (!parsed.success) throw new ProviderProtocolError(name, 'stream chunk did not match the documented shape');
  return parsed.data;
}

function mapChunk(sequence: ChunkSequence, chunk: UpstreamChunk): StreamStep {
  sequence.identify(chunk.id, chunk.created);
  const step: StreamStep = { chunks: [], done: false };
  // Azure sends a first chunk with empty `choices` carrying only prompt filter results.
  const choice = chunk.choices.find((entry) => entry.index === 0);
  if (choice) {
    step.chunks.push(...sequence.content(choice.delta.content ?? ''));
    const finish = mapOpenAiFinishReason(choice.finish_reason);
    if (finish) step.chunks.push(...sequence.finish(finish));
  }
  if (chunk.usage) {
    const usage = usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens, chunk.usage.total_tokens);
    step.usage = usage;
    step.chunks.push(sequence.usage(usage));
  }
  return step;
}

/** A JSON string literal without escapes, quotes or control characters: its text is what lies between the quotes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are what JSON strings may not hold.
const PLAIN_LITERAL = /^"[^"\\\u0000-\u001f]*"$/;

/**
 * The bytes around the content of an upstream content chunk, learnt from one that was parsed and
 * checked in full. Upstreams send every content chunk of a stream with the same id, timestamp,
 * model and fields, so an event that is those same bytes around a plain string literal is that
 * chunk with other text: the gateway takes the text without parsing the event again.
 */
interface ContentTemplate {
  prefix: string;
  suffix: string;
}

const CONTENT_KEY = '"content":';
const PROBE = 'conductor-template-probe';

/**
 * The template of a content chunk (one choice, index 0, text, no finish, no usage), if its bytes
 * show where the text goes: the same bytes around another literal must parse to the text at
 * `choices[0].delta.content` (a probe checks it, once per stream), whatever else the event holds.
 */
function learnTemplate(data: string, chunk: UpstreamChunk): ContentTemplate | undefined {
  if (chunk.usage || chunk.choices.length !== 1) return undefined;
  const choice = chunk.choices[0]!;
  const text = choice.delta.content;
  if (choice.index !== 0 || choice.finish_reason || choice.delta.role !== undefined || !text) return undefined;
  const literal = JSON.stringify(text);
  if (!PLAIN_LITERAL.test(literal)) return undefined;
  const at = data.indexOf(CONTENT_KEY + literal);
  if (at === -1) return undefined;
  const template = { prefix: data.slice(0, at + CONTENT_KEY.length), suffix: data.slice(at + CONTENT_KEY.length + literal.length) };
  const probe = contentChunk(JSON.parse(`${template.prefix}"${PROBE}"${template.suffix}`));
  return probe?.choices.length === 1 && probe.choices[0]!.delta.content === PROBE ? template : undefined;
}

/** The content literal of an event that matches the template, else undefined. */
function templateLiteral(template: ContentTemplate, data: string): string | undefined {
  const { prefix, suffix } = template;
  const end = data.length - suffix.length;
  // Slices compared with ===, not startsWith/endsWith: V8 compares whole strings many times
  // faster than it walks a prefix (~0.03 against ~0.3 µs for a 110-character one).
  if (end < prefix.length + 3 || data.slice(0, prefix.length) !== prefix || data.slice(end) !== suffix) return undefined;
  const literal = data.slice(prefix.length, end);
  return PLAIN_LITERAL.test(literal) ? literal : undefined;
}

/** https://platform.openai.com/docs/api-reference/chat-streaming — `data: {chunk}` events ending in `data: [DONE]`. */
export function createOpenAiStreamParser(name: string, publicModel: string, context: AdapterContext): StreamParser {
  const sequence = new ChunkSequence(publicModel, () => completionId(context), unixSeconds(context));
  let template: ContentTemplate | undefined;
  return {
    push(event: SseEvent): StreamStep {
      const data = event.data.trim();
      if (template) {
        const literal = templateLiteral(template, data);
        if (literal !== undefined) return { chunks: sequence.content(literal.slice(1, -1), literal), done: false };
      }
      if (data === '[DONE]') return { chunks: [], done: true };
      if (data === '') return { chunks: [], done: false };
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        throw new ProviderProtocolError(name, 'stream event was not JSON');
      }
      const error = inStreamError(name, json);
      if (error) throw error;
      const chunk = parseChunk(name, json);
      // Learnt once per stream: an upstream whose chunks differ in more than their text (a per-chunk
      // padding field, say) keeps the full parse at the cost of one failed prefix/suffix comparison.
      template ??= learnTemplate(data, chunk);
      return mapChunk(sequence, chunk);
    },
  };
}

/** Builds a full adapter for an OpenAI-compatible upstream from its few differences. */
export function createOpenAiCompatibleAdapter(config: OpenAiCompatibleConfig): ProviderAdapter {
  return {
    id: config.id,
    defaultBaseUrl: config.defaultBaseUrl,
    allowedHostSuffixes: config.allowedHostSuffixes,
    buildRequest(request, model, credentials) {
      return {
        url: config.url(credentials, model.upstreamModel),
        method: 'POST',
        headers: {
          ...config.authHeaders(credentials),
          'content-type': 'application/json',
          accept: request.stream ? 'text/event-stream' : 'application/json',
        },
        body: JSON.stringify(buildOpenAiBody(request, model, config.body)),
      };
    },
    parseResponse: (body, publicModel, context) => parseOpenAiCompletion(config.name, body, publicModel, context),
    createStreamParser: (publicModel, context) => createOpenAiStreamParser(config.name, publicModel, context),
    mapError: (status, body, headers, context) => mapOpenAiCompatibleError(config.name, status, body, headers, context?.now),
  };
}
