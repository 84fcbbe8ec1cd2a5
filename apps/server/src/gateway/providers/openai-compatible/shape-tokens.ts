/**
 * The tokens a learnt shape of a stream event has as holes (create-adapter.ts): a plain string's
 * text, and integers written as JSON writes them. Replacing such a token by another of its kind
 * keeps every other token of the event where it was, which is what lets one probe parse prove a
 * shape for every later event of it.
 */

/** The usage counts a shape may have as holes (their values differ from stream to stream). */
export const COUNT_KEYS = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;
export type CountKey = (typeof COUNT_KEYS)[number];

export const PROBE_ID = 'conductor-probe-id';
// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are what JSON strings may not hold.
export const PLAIN_TEXT = /^[^"\\\u0000-\u001f]*$/;
export const ID_KEY = '"id":"';

export const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Where the digits of `"key":<value>` start in `text`, if the token occurs once and the digits are the whole number. */
export function digitsAt(text: string, key: string, value: number): number | undefined {
  const token = `"${key}":${value}`;
  const at = text.indexOf(token);
  if (at === -1 || text.indexOf(token, at + 1) !== -1) return undefined;
  const next = text.charCodeAt(at + token.length);
  if ((next >= 48 && next <= 57) || next === 46 || next === 69 || next === 101) return undefined;
  return at + key.length + 3;
}

/** The digits at `from` as a count: canonical (no leading zero), at most 15 of them (safe). */
export function readCount(data: string, from: number): { value: number; end: number } | undefined {
  let end = from;
  while (end < data.length) {
    const code = data.charCodeAt(end);
    if (code < 48 || code > 57) break;
    end += 1;
  }
  const count = end - from;
  if (count === 0 || count > 15 || (count > 1 && data.charCodeAt(from) === 48)) return undefined;
  return { value: Number(data.slice(from, end)), end };
}

/**
 * The counts of `text` from `at` on, as the shape's `parts[first…]` lay them out (each part then a
 * count), and whether the rest is exactly the shape's last part; undefined when it is not.
 */
export function readCounts(text: string, parts: readonly string[], first: number, from: number): number[] | undefined {
  let at = from;
  const counts: number[] = [];
  for (let index = first; index < parts.length - 1; index += 1) {
    const part = parts[index] as string;
    if (text.slice(at, at + part.length) !== part) return undefined;
    const count = readCount(text, at + part.length);
    if (!count) return undefined;
    counts.push(count.value);
    at = count.end;
  }
  return text.slice(at) === parts[parts.length - 1] ? counts : undefined;
}

/** The bytes of `text` between the holes (in byte order): what a shape keeps as its parts. */
export function partsAround(text: string, holes: readonly { start: number; length: number }[]): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const hole of holes) {
    parts.push(text.slice(from, hole.start));
    from = hole.start + hole.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** The id's text of a body that starts with the shape's head: up to the next quote (the next part starts with it). */
export function readId(text: string, head: string): { id: string; end: number } | undefined {
  if (text.slice(0, head.length) !== head) return undefined;
  const end = text.indexOf('"', head.length);
  return end === -1 ? undefined : { id: text.slice(head.length, end), end };
}
