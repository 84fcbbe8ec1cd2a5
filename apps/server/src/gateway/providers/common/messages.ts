import type { ChatMessage } from '@conductor/shared/openai/chat';

/** The text parts of a message (OpenAI content may be a string, text parts, or null). */
export function textParts(content: ChatMessage['content']): string[] {
  if (content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [content];
  return content.map((part) => part.text).filter((text) => text !== '');
}

export function joinedText(content: ChatMessage['content']): string {
  return textParts(content).join('\n');
}

/** `system` and `developer` both carry instructions; providers other than OpenAI know only one kind. */
export function isInstruction(message: ChatMessage): boolean {
  return message.role === 'system' || message.role === 'developer';
}

/** `stop` as a list, or undefined. */
export function stopList(stop: string | string[] | undefined): string[] | undefined {
  if (stop === undefined) return undefined;
  const list = typeof stop === 'string' ? [stop] : stop;
  return list.length > 0 ? list : undefined;
}

/** Drops undefined members so a JSON body carries only what the caller set. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  const result: Record<string, unknown> = {};
  for (const name in value) if (value[name] !== undefined) result[name] = value[name];
  return result as T;
}

/** `max_completion_tokens` is the newer name of `max_tokens`; either may arrive. */
export function maxTokensOf(request: { max_tokens?: number | undefined; max_completion_tokens?: number | undefined }): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens;
}
