import { type UpstreamCompletion, plainCompletion } from './schemas.ts';
import {
  COUNT_KEYS,
  type CountKey,
  digitsAt,
  ID_KEY,
  isCount,
  partsAround,
  PLAIN_TEXT,
  PROBE_ID,
  readCount,
  readCounts,
  readId,
} from './shape-tokens.ts';

/**
 * A JSON answer's bytes around its id's text, its `created` digits, its one choice's text (a
 * whole JSON string literal, escapes and all) and its token counts: `parts[0]`, the id,
 * `parts[1]`, created, `parts[2]`, the text, `parts[3]`, the first count, … Answers of one shape
 * differ only in those tokens, so they parse to the same body but for those values.
 */
interface CompletionShape {
  parts: string[];
  /** The usage member of each count hole, in byte order. */
  counts: CountKey[];
  /** The body the shape was learnt from (its values are replaced when read). */
  body: UpstreamCompletion;
}

/** Shapes kept per model (finish reasons, a few variants) and models per adapter. */
const MAX_SHAPES = 4;
const MAX_MODELS = 256;
/** With every slot taken, one miss in this many replaces the oldest shape (an upstream that changed). */
const RELEARN_EVERY = 64;
const PROBE_TEXT = 'conductor "probe"\n';
const CONTENT_KEY = '"content":';

/** The shape of an answer with these values, if each token occurs once, in the order id, created, text, counts. */
function shapeOf(text: string, body: UpstreamCompletion): CompletionShape | undefined {
  const { id, created, usage, choices } = body;
  const content = choices[0]?.message.content;
  if (choices.length !== 1 || typeof content !== 'string' || !isCount(created) || !usage || !PLAIN_TEXT.test(id)) return undefined;
  const idToken = `${ID_KEY}${id}"`;
  const idAt = text.indexOf(idToken);
  if (idAt === -1 || text.indexOf(idToken, idAt + 1) !== -1) return undefined;
  const idStart = idAt + ID_KEY.length;
  const createdStart = digitsAt(text, 'created', created);
  if (createdStart === undefined || createdStart < idStart + id.length) return undefined;
  const createdEnd = createdStart + String(created).length;
  const contentToken = CONTENT_KEY + JSON.stringify(content);
  const contentAt = text.indexOf(contentToken);
  if (contentAt < createdEnd || text.indexOf(contentToken, contentAt + 1) !== -1) return undefined;
  const literalStart = contentAt + CONTENT_KEY.length;
  const literalEnd = contentAt + contentToken.length;
  const counts: { start: number; length: number; key: CountKey }[] = [];
  for (const key of COUNT_KEYS) {
    const value = usage[key];
    if (value === undefined) continue;
    const start = isCount(value) ? digitsAt(text, key, value) : undefined;
    if (start === undefined || start < literalEnd) return undefined;
    counts.push({ start, length: String(value).length, key });
  }
  counts.sort((left, right) => left.start - right.start);
  const holes = [
    { start: idStart, length: id.length },
    { start: createdStart, length: createdEnd - createdStart },
    { start: literalStart, length: literalEnd - literalStart },
    ...counts,
  ];
  return { parts: partsAround(text, holes), counts: counts.map((hole) => hole.key), body };
}

interface Values {
  id: string;
  created: number;
  content: string;
  counts: number[];
}

function fill(shape: CompletionShape, values: Values, literal: string): string {
  const { parts } = shape;
  let text = `${parts[0]}${values.id}${parts[1]}${values.created}${parts[2]}${literal}`;
  for (let index = 0; index < values.counts.length; index += 1) text += `${parts[index + 3]}${values.counts[index]}`;
  return text + parts[parts.length - 1];
}

/** The body with other values in the shape's holes. */
function bodyWith(shape: CompletionShape, values: Values): UpstreamCompletion {
  const { body } = shape;
  const choice = body.choices[0]!;
  const usage = { ...body.usage! };
  shape.counts.forEach((key, index) => {
    usage[key] = values.counts[index]!;
  });
  return {
    ...body,
    id: values.id,
    created: values.created,
    choices: [{ ...choice, message: { ...choice.message, content: values.content } }],
    usage,
  };
}

/** One probe parse: the shape's bytes around other values must read back as those values. */
function proven(shape: CompletionShape): boolean {
  const { body } = shape;
  const values: Values = {
    id: PROBE_ID,
    created: (body.created ?? 0) + 1,
    content: PROBE_TEXT,
    counts: shape.counts.map((key) => (body.usage?.[key] ?? 0) + 1),
  };
  let probe: UpstreamCompletion | undefined;
  try {
    probe = plainCompletion(JSON.parse(fill(shape, values, JSON.stringify(PROBE_TEXT))));
  } catch {
    return false;
  }
  if (!probe || probe.id !== PROBE_ID || probe.created !== values.created || probe.choices.length !== 1) return false;
  if (probe.choices[0]!.message.content !== PROBE_TEXT) return false;
  return shape.counts.every((key, index) => probe.usage?.[key] === values.counts[index]);
}

/** The values of an answer of this shape, or undefined when it is not of it (or not JSON there). */
function read(shape: CompletionShape, text: string): Values | undefined {
  const { parts } = shape;
  const found = readId(text, parts[0]!);
  if (!found) return undefined;
  const { id, end: idEnd } = found;
  const afterId = parts[1]!;
  if (text.slice(idEnd, idEnd + afterId.length) !== afterId) return undefined;
  const created = readCount(text, idEnd + afterId.length);
  if (!created) return undefined;
  const afterCreated = parts[2]!;
  if (text.slice(created.end, created.end + afterCreated.length) !== afterCreated) return undefined;
  const literalStart = created.end + afterCreated.length;
  if (text.charCodeAt(literalStart) !== 34) return undefined;
  // The closing quote: the first one not escaped (preceded by an even number of backslashes).
  let close = text.indexOf('"', literalStart + 1);
  while (close !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 92) backslashes += 1;
    if (backslashes % 2 === 0) break;
    close = text.indexOf('"', close + 1);
  }
  if (close === -1) return undefined;
  let content: unknown;
  try {
    content = JSON.parse(text.slice(literalStart, close + 1));
  } catch {
    return undefined;
  }
  if (typeof content !== 'string') return undefined;
  const counts = readCounts(text, parts, 3, close + 1);
  if (!counts || !PLAIN_TEXT.test(id)) return undefined;
  return { id, created: created.value, content, counts };
}

/**
 * What an OpenAI-compatible adapter learnt of its JSON answers, per model: an answer of a known
 * shape is read from its bytes without parsing the whole body. Each shape is proven by one probe
 * parse; a property test holds any sequence of answers to the full parse (completion-shapes.test.ts).
 */
export class CompletionShapes {
  readonly #byModel = new Map<string, { shapes: CompletionShape[]; misses: number }>();

  /** The body of an answer of a known shape, or undefined (then parse it, and `learn`). */
  read(model: string, text: string): UpstreamCompletion | undefined {
    const known = this.#byModel.get(model);
    if (!known) return undefined;
    for (const shape of known.shapes) {
      const values = read(shape, text);
      if (values) return bodyWith(shape, values);
    }
    known.misses += 1;
    return undefined;
  }

  /** Learns the shape of an answer that was parsed in full. */
  learn(model: string, text: string, body: unknown): void {
    let known = this.#byModel.get(model);
    if (known && known.shapes.length >= MAX_SHAPES && known.misses % RELEARN_EVERY !== 0) return;
    const completion = plainCompletion(body);
    const shape = completion ? shapeOf(text, completion) : undefined;
    if (!shape || !proven(shape)) return;
    if (!known) {
      if (this.#byModel.size >= MAX_MODELS) this.#byModel.clear();
      known = { shapes: [], misses: 0 };
      this.#byModel.set(model, known);
    }
    if (known.shapes.length >= MAX_SHAPES) known.shapes.shift();
    known.shapes.push(shape);
  }
}
