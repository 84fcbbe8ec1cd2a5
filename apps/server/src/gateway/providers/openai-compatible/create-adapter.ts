import type { ProviderId } from '@conductor/shared';
import type { ChatCompletion } from '@conductor/shared/openai/chat';
import { ChunkSequence, completionId, completionOf, unixSeconds, usageOf } from '../common/chunks.ts';
import { classifyUpstreamError, normalizeErrorBody, type RequestFault, textExcerpt } from '../common/errors.ts';
import { retryAfterFromHeaders, retryAfterFromResetHeaders } from '../common/retry-after.ts';
import { ProviderProtocolError, ProviderStreamError } from '../common/stream-error.ts';
import type { AdapterContext, ProviderAdapter, ProviderCredentials, SseEvent, StreamParser, StreamStep, UpstreamError } from '../types.ts';
import { generationFailureOf, mapOpenAiFinishReason } from './finish-reason.ts';
import {
  COUNT_KEYS,
  type CountKey,
  digitsAt,
  ID_KEY,
  isCount,
  partsAround,
  PLAIN_TEXT,
  PROBE_ID,
  readCounts,
  readId,
} from './shape-tokens.ts';
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

interface ErrorFields {
  message?: string | undefined;
  code?: string | undefined;
  requestFault?: RequestFault | undefined;
}

/**
 * The code and param of OpenAI's nested envelope (also Azure's), which OpenAI clients branch on
 * (`context_length_exceeded`, Azure's `content_filter`). Mistral's top-level `code` is a number
 * of its own (`"1500"`) that no OpenAI client knows, so it is not one.
 */
function requestFaultOf(error: UpstreamErrorBody['error']): RequestFault | undefined {
  if (!error) return undefined;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const param = typeof error.param === 'string' ? error.param : undefined;
  return code === undefined && param === undefined ? undefined : { code, param };
}

function upstreamErrorFields(body: UpstreamErrorBody): ErrorFields {
  const message = body.error?.message ?? describeErrorMessage(body.message) ?? describeErrorMessage(body.detail);
  const code = body.error?.code ?? body.error?.type ?? body.code ?? body.type ?? undefined;
  return {
    message: message ?? undefined,
    code: code === undefined || code === null ? undefined : String(code),
    requestFault: requestFaultOf(body.error),
  };
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
  const { message, code, requestFault }: ErrorFields = parsed.success ? upstreamErrorFields(parsed.data) : { message: textExcerpt(body) };
  const retryAfterMs = retryAfterFromHeaders(headers, now) ?? (status === 429 ? retryAfterFromResetHeaders(headers) : undefined);
  return classifyUpstreamError(status, { providerName: name, message, code, retryAfterMs, requestFault });
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
  const failure = generationFailureOf(name, choice.finish_reason);
  if (failure) throw failure;
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

function mapChunk(name: string, sequence: ChunkSequence, chunk: UpstreamChunk): StreamStep {
  sequence.identify(chunk.id, chunk.created);
  const step: StreamStep = { chunks: [], done: false };
  // Azure sends a first chunk with empty `choices` carrying only prompt filter results.
  const choice = chunk.choices.find((entry) => entry.index === 0);
  if (choice) {
    const failure = generationFailureOf(name, choice.finish_reason);
    if (failure) throw failure;
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
 * An event's bytes around its chunk's id text, its `created` digits and (for a usage chunk) the
 * digits of its token counts: `parts[0]`, the id, `parts[1]`, created, `parts[2]`, the first
 * count, … Two events with the same shape differ only in those tokens, each a plain string's
 * text or an integer, so they parse to the same chunk but for those values: a shape proven once
 * by a probe (the same bytes around other values must parse to those values) reads every later
 * event of that shape without parsing it.
 */
interface EventShape {
  parts: string[];
  /** The usage member of each hole after id and created, in byte order. */
  counts: CountKey[];
}

/** What fills an event shape's holes. */
interface ShapeValues {
  id: string;
  created: number;
  counts: number[];
}

/** What an adapter learnt of one model's streams, reused by every later stream of that model. */
export interface StreamShapes {
  /** The content template of the model's streams, its prefix with the id and created as holes. */
  content?: { prefix: EventShape; suffix: string };
  /** Events that recur in every stream with the same bytes but for id, created and counts (role, finish, usage). */
  events: { shape: EventShape; chunk: UpstreamChunk }[];
  /** Events parsed in full since the start: with every slot taken, one in RELEARN_EVERY may replace the oldest shape. */
  misses?: number;
}

/** With every slot taken, one miss in this many replaces the oldest shape (an upstream that changed). */
const RELEARN_EVERY = 64;

/** Recurring event shapes kept per model (the role, finish and usage chunks; a few variants). */
const MAX_EVENT_SHAPES = 6;
/**
 * The shape of `text` with the chunk's id, created and usage counts as holes, if each token
 * occurs once, the id comes first and created before the counts.
 */
function shapeAround(text: string, chunk: UpstreamChunk): EventShape | undefined {
  const { id, created, usage } = chunk;
  if (id === undefined || !isCount(created) || !PLAIN_TEXT.test(id)) return undefined;
  const idToken = `${ID_KEY}${id}"`;
  const idAt = text.indexOf(idToken);
  if (idAt === -1 || text.indexOf(idToken, idAt + 1) !== -1) return undefined;
  const idStart = idAt + ID_KEY.length;
  const createdStart = digitsAt(text, 'created', created);
  if (createdStart === undefined || createdStart < idStart + id.length) return undefined;
  const holes: { start: number; length: number; key?: CountKey }[] = [
    { start: idStart, length: id.length },
    { start: createdStart, length: String(created).length },
  ];
  if (usage) {
    for (const key of COUNT_KEYS) {
      const value = usage[key];
      if (value === undefined) continue;
      if (!isCount(value)) return undefined;
      const start = digitsAt(text, key, value);
      if (start === undefined || start < createdStart) return undefined;
      holes.push({ start, length: String(value).length, key });
    }
  }
  const counts = holes.slice(2).sort((left, right) => left.start - right.start);
  return { parts: partsAround(text, [...holes.slice(0, 2), ...counts]), counts: counts.map((hole) => hole.key as CountKey) };
}

function fill(shape: EventShape, values: ShapeValues): string {
  const { parts } = shape;
  let text = `${parts[0]}${values.id}${parts[1]}${values.created}`;
  for (let index = 0; index < values.counts.length; index += 1) text += `${parts[index + 2]}${values.counts[index]}`;
  return text + parts[parts.length - 1];
}

/** The values of an event of this shape, or undefined when the event is not of it. */
function matchShape(shape: EventShape, data: string): ShapeValues | undefined {
  const { parts } = shape;
  const found = readId(data, parts[0]!);
  if (!found) return undefined;
  const { id } = found;
  const numbers = readCounts(data, parts, 1, found.end);
  if (!numbers || !PLAIN_TEXT.test(id)) return undefined;
  return { id, created: numbers[0]!, counts: numbers.slice(1) };
}

/** The chunk an event of a known shape parses to. */
function chunkOf(known: { shape: EventShape; chunk: UpstreamChunk }, values: ShapeValues): UpstreamChunk {
  const chunk = { ...known.chunk, id: values.id, created: values.created };
  if (values.counts.length > 0 && chunk.usage) {
    const usage = { ...chunk.usage };
    known.shape.counts.forEach((key, index) => {
      usage[key] = values.counts[index]!;
    });
    chunk.usage = usage;
  }
  return chunk;
}

/**
 * A chunk that recurs in every stream but for its values: no text (the role, finish and usage
 * chunks). A failed generation's end (`finish_reason: "error"`) is rare and throws: not worth a slot.
 */
const recurs = (chunk: UpstreamChunk) => chunk.choices.every((choice) => !choice.delta.content && choice.finish_reason !== 'error');

/** Learns the shape of a recurring event (one probe parse), unless enough are known. */
function learnEvent(shapes: StreamShapes, data: string, chunk: UpstreamChunk): void {
  if (!recurs(chunk)) return;
  const full = shapes.events.length >= MAX_EVENT_SHAPES;
  if (full && (shapes.misses ?? 0) % RELEARN_EVERY !== 0) return;
  const shape = shapeAround(data, chunk);
  if (!shape || chunk.created === undefined) return;
  const values: ShapeValues = {
    id: PROBE_ID,
    created: chunk.created + 1,
    counts: shape.counts.map((key) => (chunk.usage?.[key] ?? 0) + 1),
  };
  let probe: UpstreamChunk | undefined;
  try {
    probe = contentChunk(JSON.parse(fill(shape, values)));
  } catch {
    return;
  }
  if (probe?.id !== PROBE_ID || probe.created !== values.created) return;
  if (shape.counts.some((key, index) => probe.usage?.[key] !== values.counts[index])) return;
  if (full) shapes.events.shift();
  shapes.events.push({ shape, chunk });
}

/**
 * The template of a content chunk (one choice, index 0, text, no finish, no usage), if its bytes
 * show where the text goes: the same bytes around another literal must parse to the text at
 * `choices[0].delta.content` (a probe checks it, once per stream), whatever else the event holds.
 * The same probe also puts other values in the chunk's id and created: when they read back, the
 * template with those two as holes is kept for the model's later streams.
 */
function learnTemplate(data: string, chunk: UpstreamChunk, shapes: StreamShapes): ContentTemplate | undefined {
  if (chunk.usage || chunk.choices.length !== 1) return undefined;
  const choice = chunk.choices[0]!;
  const text = choice.delta.content;
  if (choice.index !== 0 || choice.finish_reason || choice.delta.role !== undefined || !text) return undefined;
  const literal = JSON.stringify(text);
  if (!PLAIN_LITERAL.test(literal)) return undefined;
  const at = data.indexOf(CONTENT_KEY + literal);
  if (at === -1) return undefined;
  const template = { prefix: data.slice(0, at + CONTENT_KEY.length), suffix: data.slice(at + CONTENT_KEY.length + literal.length) };
  const prefixShape = shapeAround(template.prefix, chunk);
  if (prefixShape && chunk.created !== undefined) {
    const created = chunk.created + 1;
    const probe = contentChunk(JSON.parse(`${fill(prefixShape, { id: PROBE_ID, created, counts: [] })}"${PROBE}"${template.suffix}`));
    if (probe?.id === PROBE_ID && probe.created === created && probe.choices.length === 1 && probe.choices[0]!.delta.content === PROBE) {
      shapes.content = { prefix: prefixShape, suffix: template.suffix };
      return template;
    }
  }
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

/**
 * https://platform.openai.com/docs/api-reference/chat-streaming — `data: {chunk}` events ending in
 * `data: [DONE]`. `shapes` is what earlier streams of this model taught (the adapter keeps one per
 * model): its recurring events are read without parsing, and once the stream's id and created
 * are known its content template is ready before the first content event.
 */
export function createOpenAiStreamParser(
  name: string,
  publicModel: string,
  context: AdapterContext,
  shapes: StreamShapes = { events: [] },
): StreamParser {
  const sequence = new ChunkSequence(publicModel, () => completionId(context), unixSeconds(context));
  let template: ContentTemplate | undefined;
  /** The template came from an earlier stream and no event of this one has matched it yet. */
  let borrowed = false;
  /**
   * The id and created filled into a borrowed template: what a matching content event carries.
   * Until the sequence starts, a parsed event re-identifies it with its own values (events
   * without a first choice may change them), so a matched one must too.
   */
  let identity: { id: string; created: number } | undefined;
  /** The stream's identity: the content template of earlier streams, filled in with it. */
  const adopt = (id: string | undefined, created: number | undefined) => {
    if (template || !shapes.content || id === undefined || created === undefined || !PLAIN_TEXT.test(id)) return;
    if (!Number.isSafeInteger(created) || created < 0) return;
    template = { prefix: fill(shapes.content.prefix, { id, created, counts: [] }), suffix: shapes.content.suffix };
    identity = { id, created };
    borrowed = true;
  };
  return {
    push(event: SseEvent): StreamStep {
      const data = event.data.trim();
      if (template) {
        const literal = templateLiteral(template, data);
        if (literal !== undefined) {
          borrowed = false;
          if (identity && !sequence.started) sequence.identify(identity.id, identity.created);
          return { chunks: sequence.content(literal.slice(1, -1), literal), done: false };
        }
      }
      if (data === '[DONE]') return { chunks: [], done: true };
      if (data === '') return { chunks: [], done: false };
      for (const known of shapes.events) {
        const found = matchShape(known.shape, data);
        if (found) {
          adopt(found.id, found.created);
          return mapChunk(name, sequence, chunkOf(known, found));
        }
      }
      shapes.misses = (shapes.misses ?? 0) + 1;
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
      // A template borrowed from earlier streams that this stream's content does not fit is replaced.
      if (!template || borrowed) {
        const learnt = learnTemplate(data, chunk, shapes);
        if (learnt) {
          template = learnt;
          identity = undefined;
          borrowed = false;
        }
      }
      learnEvent(shapes, data, chunk);
      adopt(chunk.id, chunk.created);
      return mapChunk(name, sequence, chunk);
    },
  };
}

/** Models whose stream shapes an adapter keeps (the catalogue has a few dozen). */
const MAX_MODELS = 256;

/** Builds a full adapter for an OpenAI-compatible upstream from its few differences. */
export function createOpenAiCompatibleAdapter(config: OpenAiCompatibleConfig): ProviderAdapter {
  // The URL of the last request, kept while base URL, API version and model stay the same (they
  // do for nearly every request): the transport looks the same string up again instead of a new
  // one it would have to hash.
  let last: { baseUrl: string; apiVersion: string | undefined; model: string; url: string } | undefined;
  /** What this upstream's streams look like, per model (see createOpenAiStreamParser). */
  const streamShapes = new Map<string, StreamShapes>();
  const urlFor = (credentials: ProviderCredentials, upstreamModel: string): string => {
    if (last?.baseUrl === credentials.baseUrl && last.apiVersion === credentials.apiVersion && last.model === upstreamModel)
      return last.url;
    const url = config.url(credentials, upstreamModel);
    last = { baseUrl: credentials.baseUrl, apiVersion: credentials.apiVersion, model: upstreamModel, url };
    return url;
  };
  return {
    id: config.id,
    defaultBaseUrl: config.defaultBaseUrl,
    allowedHostSuffixes: config.allowedHostSuffixes,
    buildRequest(request, model, credentials) {
      return {
        url: urlFor(credentials, model.upstreamModel),
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
    createStreamParser: (publicModel, context) => {
      let shapes = streamShapes.get(publicModel);
      if (!shapes) {
        if (streamShapes.size >= MAX_MODELS) streamShapes.clear();
        shapes = { events: [] };
        streamShapes.set(publicModel, shapes);
      }
      return createOpenAiStreamParser(config.name, publicModel, context, shapes);
    },
    mapError: (status, body, headers, context) => mapOpenAiCompatibleError(config.name, status, body, headers, context?.now),
  };
}
