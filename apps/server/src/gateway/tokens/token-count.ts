import { CHARS_PER_TOKEN } from '@conductor/shared';
import type { ChatMessage } from '@conductor/shared/openai/chat';

/** Per-message framing tokens in OpenAI's chat format (https://cookbook.openai.com, "How to count tokens"). */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_NAME = 1;
export const REPLY_PRIMING_TOKENS = 3;

export function messageText(message: ChatMessage): string {
  const { content } = message;
  if (content === null) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) text += part.text;
  return text;
}

/** The cheap estimate (about 4 characters per token, the spec's rule) used for reservations and when an upstream reports no usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    total += TOKENS_PER_MESSAGE + estimateTokens(messageText(message)) + (message.name ? TOKENS_PER_NAME : 0);
  }
  return total;
}

export interface Tokenizer {
  encode(text: string): number[];
  decode(tokens: readonly number[]): string;
  count(text: string): number;
}

let loading: Promise<Tokenizer> | undefined;

/**
 * The real tokenizer (o200k_base, the GPT-4o encoding, shipped inside the gpt-tokenizer
 * package: no download). Loaded on first use (~0.1 s) so that only sandbox traffic pays for it.
 * Special-token text in prompts is counted as plain text, never refused.
 */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => {
    const options = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
    return {
      encode: (text: string) => module.encode(text, options),
      decode: (tokens: readonly number[]) => module.decode(tokens),
      count: (text: string) => module.countTokens(text, options),
    };
  });
  return loading;
}

/** Prompt tokens as OpenAI counts chat input: content and role per message, framing, reply priming. */
export function countPromptTokens(tokenizer: Tokenizer, messages: readonly ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    total += TOKENS_PER_MESSAGE + tokenizer.count(messageText(message)) + tokenizer.count(message.role);
    if (message.name) total += TOKENS_PER_NAME + tokenizer.count(message.name);
  }
  return total;
}
