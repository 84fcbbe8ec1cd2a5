import { STREAM_DEFAULT, TEMPERATURE } from '@conductor/shared';
import { ChatCompletionRequest, ChatRole } from '@conductor/shared/openai/chat';
import { isRecord } from '../../lib/is-record.ts';

type Check = (value: unknown) => boolean;

const between =
  (min: number, max: number): Check =>
  (value) =>
    typeof value === 'number' && value >= min && value <= max;
const shortString =
  (max: number): Check =>
  (value) =>
    typeof value === 'string' && value.length <= max;
const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= 1_000_000;
const ROLES: ReadonlySet<unknown> = new Set(ChatRole.options);
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['role', 'content', 'name']);

/** A message as the schema outputs it (role, content, name), or undefined for anything unusual. */
function plainMessage(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const { role, content, name } = value;
  if (!ROLES.has(role) || !(content === null || (typeof content === 'string' && content.length <= 1_000_000))) return undefined;
  if (name !== undefined && !shortString(64)(name)) return undefined;
  for (const key of Object.keys(value)) if (!MESSAGE_KEYS.has(key)) return undefined;
  return name === undefined ? { role, content } : { role, content, name };
}

/** The members checked here, with the schema's rules; `conductor` and content parts are left to zod. */
const MEMBERS: Record<string, Check> = {
  model: (value) => typeof value === 'string' && value.length >= 1 && value.length <= 128,
  temperature: between(TEMPERATURE.min, TEMPERATURE.max),
  top_p: between(0, 1),
  max_tokens: count,
  max_completion_tokens: count,
  stream: (value) => typeof value === 'boolean',
  stop: (value) => shortString(256)(value) || (Array.isArray(value) && value.length <= 4 && value.every(shortString(256))),
  presence_penalty: between(-2, 2),
  frequency_penalty: between(-2, 2),
  n: (value) => value === 1,
  user: shortString(256),
  seed: (value) => Number.isSafeInteger(value),
};
const SHAPE_KEYS = Object.keys(ChatCompletionRequest.shape);
const KNOWN: ReadonlySet<string> = new Set(SHAPE_KEYS);
const DEFAULTS = new Map<string, unknown>([
  ['temperature', TEMPERATURE.default],
  ['stream', STREAM_DEFAULT],
]);

/**
 * The hot path of `ChatCompletionRequest.safeParse`: the usual body (text messages, plain
 * sampling members, no routing extension) is checked member by member and copied in the order
 * the schema outputs it, defaults filled in, unknown members kept. It accepts only what the
 * schema accepts and outputs the same object (plain-request.test.ts holds the two together);
 * anything else returns undefined and goes through the schema itself, errors included.
 */
export function plainChatRequest(body: unknown): ChatCompletionRequest | undefined {
  if (!isRecord(body)) return undefined;
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > 2048) return undefined;
  const output: Record<string, unknown> = {};
  for (const key of SHAPE_KEYS) {
    const value = body[key];
    if (value === undefined) {
      if (DEFAULTS.has(key)) output[key] = DEFAULTS.get(key);
      else if (key === 'model') return undefined;
      continue;
    }
    if (key === 'messages') {
      const copies: unknown[] = [];
      for (const message of messages) {
        const copy = plainMessage(message);
        if (!copy) return undefined;
        copies.push(copy);
      }
      output.messages = copies;
    } else if (key === 'stream_options') {
      if (!isRecord(value)) return undefined;
      for (const member of Object.keys(value)) if (member !== 'include_usage') return undefined;
      const includeUsage = value.include_usage;
      if (includeUsage !== undefined && typeof includeUsage !== 'boolean') return undefined;
      output.stream_options = includeUsage === undefined ? {} : { include_usage: includeUsage };
    } else {
      const check = MEMBERS[key];
      if (!check?.(value)) return undefined;
      output[key] = value;
    }
  }
  for (const key of Object.keys(body)) {
    if (KNOWN.has(key)) continue;
    if (key === '__proto__') return undefined;
    output[key] = body[key];
  }
  return output as ChatCompletionRequest;
}
