import type { ChatCompletion, ChatCompletionChunk, FinishReason, Usage } from '@conductor/shared/openai/chat';
import type { AdapterContext } from '../types.ts';

/** `chatcmpl-…` ids: the context's id, prefixed unless it already is. */
export function completionId(context: AdapterContext): string {
  const id = context.generateId();
  return id.startsWith('chatcmpl-') ? id : `chatcmpl-${id}`;
}

export function unixSeconds(context: AdapterContext): number {
  return Math.floor(context.now() / 1000);
}

export function usageOf(promptTokens: number, completionTokens: number, totalTokens?: number): Usage {
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: totalTokens ?? promptTokens + completionTokens };
}

export function completionOf(input: {
  id: string;
  created: number;
  model: string;
  content: string | null;
  finishReason: FinishReason | null;
  usage: Usage;
}): ChatCompletion {
  return {
    id: input.id,
    object: 'chat.completion',
    created: input.created,
    model: input.model,
    choices: [{ index: 0, message: { role: 'assistant', content: input.content }, finish_reason: input.finishReason }],
    usage: input.usage,
  };
}

/**
 * A chunk that carries its own SSE text (`data: {…}\n\n`), built from the stream's fixed head
 * (id, object, created, model) and, for content, the text's JSON string literal, so the hot path
 * does not serialise the object again. The text is exactly `JSON.stringify` of the fields;
 * nothing mutates chunks.
 */
class EncodedChunk implements ChatCompletionChunk {
  readonly id: string;
  readonly object = 'chat.completion.chunk' as const;
  readonly created: number;
  readonly model: string;
  readonly choices: ChatCompletionChunk['choices'];
  readonly #sse: string;

  constructor(id: string, created: number, model: string, choice: ChatCompletionChunk['choices'][number], sse: string) {
    this.id = id;
    this.created = created;
    this.model = model;
    this.choices = [choice];
    this.#sse = sse;
  }

  static sse(chunk: ChatCompletionChunk): string | undefined {
    return #sse in chunk ? (chunk as EncodedChunk).#sse : undefined;
  }
}

/** The SSE event for a chunk: its own text when it has one, else `data: <JSON>`. */
export function sseData(chunk: ChatCompletionChunk): string {
  return EncodedChunk.sse(chunk) ?? `data: ${JSON.stringify(chunk)}\n\n`;
}

const CONTENT_SUFFIX = '},"finish_reason":null}]}\n\n';
const ROLE_DELTA = '"role":"assistant","content":""';

/**
 * Builds the OpenAI chunk sequence every adapter emits, whatever the upstream's event shape
 * (https://platform.openai.com/docs/api-reference/chat-streaming/streaming): a role delta first,
 * content deltas, one chunk carrying `finish_reason`, then a usage chunk with empty `choices`
 * (the shape OpenAI sends for `stream_options.include_usage`; the gateway drops it when the client
 * did not ask for usage).
 */
export class ChunkSequence {
  readonly #model: string;
  /** The upstream's id once known; otherwise one is made (only if a chunk goes out before it). */
  #id: string | undefined;
  readonly #makeId: () => string;
  #created: number;
  #started = false;
  #finished = false;
  /** `data: {"id":…,"choices":[{"index":0,"delta":{` once the identity is fixed. */
  #head: string | undefined;

  constructor(model: string, makeId: () => string, created: number) {
    this.#model = model;
    this.#makeId = makeId;
    this.#created = created;
  }

  get #currentId(): string {
    this.#id ??= this.#makeId();
    return this.#id;
  }

  /** Adopts the upstream's id and timestamp when they arrive before the first chunk. */
  identify(id: string | undefined, created: number | undefined): void {
    if (this.#started) return;
    // Azure's leading prompt-filter chunk carries `"id": ""` and `"created": 0`: not an identity.
    if (id) this.#id = id;
    if (created !== undefined && created > 0) this.#created = created;
  }

  get started(): boolean {
    return this.#started;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** The chunk of one choice, with its SSE text: the head, the delta's members, then the rest. */
  #chunk(
    delta: ChatCompletionChunk['choices'][number]['delta'],
    finishReason: FinishReason | null,
    deltaJson: string,
  ): ChatCompletionChunk {
    const id = this.#currentId;
    this.#head ??= `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${JSON.stringify(this.#created)},"model":${JSON.stringify(this.#model)},"choices":[{"index":0,"delta":{`;
    const rest = finishReason === null ? CONTENT_SUFFIX : `},"finish_reason":${JSON.stringify(finishReason)}}]}\n\n`;
    return new EncodedChunk(
      id,
      this.#created,
      this.#model,
      { index: 0, delta, finish_reason: finishReason },
      this.#head + deltaJson + rest,
    );
  }

  /** The role delta, once; later calls return nothing. */
  start(): ChatCompletionChunk[] {
    if (this.#started) return [];
    this.#started = true;
    return [this.#chunk({ role: 'assistant', content: '' }, null, ROLE_DELTA)];
  }

  /**
   * The role delta if not yet sent, then the text (nothing for empty text). `literal`, when the
   * caller already has it, is the text as a JSON string literal (`JSON.stringify(text)`).
   */
  content(text: string, literal?: string): ChatCompletionChunk[] {
    const chunks = this.start();
    if (text === '') return chunks;
    chunks.push(this.#chunk({ content: text }, null, `"content":${literal ?? JSON.stringify(text)}`));
    return chunks;
  }

  /** The finish chunk, once. */
  finish(reason: FinishReason): ChatCompletionChunk[] {
    const chunks = this.start();
    if (this.#finished) return chunks;
    this.#finished = true;
    chunks.push(this.#chunk({}, reason, ''));
    return chunks;
  }

  usage(usage: Usage): ChatCompletionChunk {
    return { id: this.#currentId, object: 'chat.completion.chunk', created: this.#created, model: this.#model, choices: [], usage };
  }
}
