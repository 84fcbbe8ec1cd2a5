/**
 * Upstream error messages sometimes echo (part of) the key, e.g. OpenAI's "Incorrect API key
 * provided: sk-abc***xyz". Key-like tokens (prefixed keys, Google `AIza…` keys, and long opaque
 * strings such as Mistral, Cohere and Azure keys) are blanked before a message can reach a client or a log.
 */
const KEY_LIKE = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{3,}[A-Za-z0-9_*]|\bAIza[A-Za-z0-9_*-]{8,}|\b[A-Za-z0-9_*-]{32,}/g;

export function redactSecrets(message: string): string {
  return message.replace(KEY_LIKE, '[redacted]');
}
