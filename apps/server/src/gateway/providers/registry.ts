import type { ProviderId } from '@conductor/shared';
import { isLoopbackHost } from '../../lib/loopback.ts';
import { anthropicAdapter } from './anthropic/anthropic.ts';
import { azureAdapter } from './azure/azure.ts';
import { cohereAdapter } from './cohere/cohere.ts';
import { googleAdapter } from './google/google.ts';
import { mistralAdapter } from './mistral/mistral.ts';
import { openaiAdapter } from './openai/openai.ts';
import type { ProviderAdapter } from './types.ts';

export const PROVIDER_ADAPTERS: Record<ProviderId, ProviderAdapter> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  google: googleAdapter,
  azure: azureAdapter,
  mistral: mistralAdapter,
  cohere: cohereAdapter,
};

export function getAdapter(id: ProviderId): ProviderAdapter {
  return PROVIDER_ADAPTERS[id];
}

export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; reason: string };

/** `api.openai.com` allows exactly that host and its subdomains; `.openai.azure.com` allows subdomains only. */
function hostAllowed(hostname: string, suffixes: readonly string[]): boolean {
  return suffixes.some((suffix) => {
    const wanted = suffix.toLowerCase();
    if (wanted.startsWith('.')) return hostname.endsWith(wanted) && hostname.length > wanted.length;
    return hostname === wanted || hostname.endsWith(`.${wanted}`);
  });
}

/**
 * Checks a configured upstream base URL: outside tests only `https://` on the provider's own
 * hosts (default port, no credentials, query or fragment), so a misconfiguration cannot send
 * provider keys elsewhere. With `allowLocal` (tests only), loopback `http://` and `https://`
 * URLs are accepted too, which is how tests aim adapters at fake upstreams. The result has no
 * trailing slash.
 */
export function validateBaseUrl(adapter: ProviderAdapter, url: string, allowLocal: boolean): BaseUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `${adapter.id}: base URL is not a valid URL` };
  }
  if (parsed.username !== '' || parsed.password !== '')
    return { ok: false, reason: `${adapter.id}: base URL must not contain credentials` };
  if (parsed.search !== '' || parsed.hash !== '') return { ok: false, reason: `${adapter.id}: base URL must not have a query or fragment` };
  const baseUrl = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  const hostname = parsed.hostname.toLowerCase();
  if (allowLocal && isLoopbackHost(hostname) && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return { ok: true, baseUrl };
  if (parsed.protocol !== 'https:') return { ok: false, reason: `${adapter.id}: base URL must use https` };
  if (parsed.port !== '') return { ok: false, reason: `${adapter.id}: base URL must use the default https port` };
  if (!hostAllowed(hostname, adapter.allowedHostSuffixes)) {
    return { ok: false, reason: `${adapter.id}: base URL host must be one of ${adapter.allowedHostSuffixes.join(', ')}` };
  }
  return { ok: true, baseUrl };
}
