import type { IncomingHttpHeaders } from 'node:http';
import type { ProviderId } from '@conductor/shared';

/** How each provider's chat endpoint is addressed and authenticated, as the adapters send it. */
export interface ProviderWire {
  /** The base URL to configure for this provider, given the server's origin. */
  baseUrl(origin: string): string;
  /** Whether `url` is the chat endpoint; if so, whether the request asks for a stream. */
  match(url: URL, body: unknown): { stream: boolean } | undefined;
  /** The key the request carries, from this provider's auth header. */
  apiKey(headers: IncomingHttpHeaders): string | undefined;
}

function streamFlag(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  return value?.toLowerCase().startsWith('bearer ') ? value.slice(7) : undefined;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const openAiStyle = (prefix: string): ProviderWire => ({
  baseUrl: (origin) => `${origin}${prefix}`,
  match: (url, body) => (url.pathname === `${prefix}/chat/completions` ? { stream: streamFlag(body) } : undefined),
  apiKey: bearer,
});

export const WIRES: Record<ProviderId, ProviderWire> = {
  openai: openAiStyle('/v1'),
  mistral: openAiStyle('/v1'),
  azure: {
    baseUrl: (origin) => origin,
    match: (url, body) =>
      /^\/openai\/deployments\/[^/]+\/chat\/completions$/.test(url.pathname) && url.searchParams.has('api-version')
        ? { stream: streamFlag(body) }
        : undefined,
    apiKey: (headers) => header(headers, 'api-key'),
  },
  anthropic: {
    baseUrl: (origin) => origin,
    match: (url, body) => (url.pathname === '/v1/messages' ? { stream: streamFlag(body) } : undefined),
    apiKey: (headers) => header(headers, 'x-api-key'),
  },
  google: {
    baseUrl: (origin) => origin,
    match: (url) => {
      const found = /^\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.exec(url.pathname);
      if (!found) return undefined;
      const stream = found[1] === 'streamGenerateContent';
      if (stream && url.searchParams.get('alt') !== 'sse') return undefined;
      return { stream };
    },
    apiKey: (headers) => header(headers, 'x-goog-api-key'),
  },
  cohere: {
    baseUrl: (origin) => origin,
    match: (url, body) => (url.pathname === '/v2/chat' ? { stream: streamFlag(body) } : undefined),
    apiKey: bearer,
  },
};
