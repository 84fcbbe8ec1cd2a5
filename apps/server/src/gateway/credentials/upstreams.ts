import { PROVIDER_IDS, type ProviderId } from '@conductor/shared';
import type { Env } from '../../config/env.ts';
import type { GatewayPrincipal } from '../auth/api-key-auth.ts';
import { getAdapter, validateBaseUrl } from '../providers/registry.ts';
import type { ProviderAdapter, ProviderCredentials } from '../providers/types.ts';

/** One provider as this server reaches it: adapter, validated base URL, hosted key (never logged). */
export interface Upstream {
  provider: ProviderId;
  adapter: ProviderAdapter;
  /** Undefined when the provider cannot be reached at all (Azure without its resource URL). */
  baseUrl: string | undefined;
  apiVersion: string | undefined;
  hostedKey: string | undefined;
  /** The circuit breaker's key: one per upstream endpoint. */
  breakerKey: string;
}

export type Upstreams = Record<ProviderId, Upstream>;

const KEY_VARIABLE = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_API_KEY',
  azure: 'AZURE_OPENAI_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  cohere: 'COHERE_API_KEY',
} as const satisfies Record<ProviderId, keyof Env>;

const URL_VARIABLE = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
  google: 'GOOGLE_BASE_URL',
  azure: 'AZURE_OPENAI_BASE_URL',
  mistral: 'MISTRAL_BASE_URL',
  cohere: 'COHERE_BASE_URL',
} as const satisfies Record<ProviderId, keyof Env>;

/**
 * Reads the providers' base URLs and hosted keys once at start-up. A base URL that is not the
 * provider's own https host (outside tests) stops the server: keys must never go elsewhere.
 * Callers can never supply an upstream URL.
 */
export function loadUpstreams(env: Env): Upstreams {
  const entries = PROVIDER_IDS.map((provider): [ProviderId, Upstream] => {
    const adapter = getAdapter(provider);
    const configured = env[URL_VARIABLE[provider]];
    const candidate = configured ?? (adapter.defaultBaseUrl === '' ? undefined : adapter.defaultBaseUrl);
    let baseUrl: string | undefined;
    if (candidate !== undefined) {
      const check = validateBaseUrl(adapter, candidate, env.UPSTREAM_ALLOW_LOCAL && env.NODE_ENV === 'test');
      if (!check.ok) throw new Error(`Invalid configuration:\n  - ${URL_VARIABLE[provider]}: ${check.reason}`);
      baseUrl = check.baseUrl;
    }
    return [
      provider,
      {
        provider,
        adapter,
        baseUrl,
        apiVersion: provider === 'azure' ? env.AZURE_OPENAI_API_VERSION : undefined,
        hostedKey: env[KEY_VARIABLE[provider]],
        breakerKey: `${provider} ${baseUrl ?? ''}`,
      },
    ];
  });
  return Object.fromEntries(entries) as Upstreams;
}

export interface KeyChoice {
  credentials: ProviderCredentials;
  keySource: 'byok' | 'hosted';
  /** The circuit breaker of the endpoint the key is sent to (an account's own Azure resource has its own). */
  breakerKey: string;
}

/**
 * The key for one provider: the account's own key first (BYOK), sent to the account's own
 * endpoint when it gave one (Azure OpenAI: its resource), else the server's; without an own key,
 * the server's hosted key. Accounts on the byo-keys plan use only their own keys (their traffic
 * has no quota on ours).
 */
export function chooseKey(upstream: Upstream, principal: GatewayPrincipal): KeyChoice | undefined {
  const own = principal.providerKeys[upstream.provider];
  const ownEndpoint = own === undefined ? undefined : principal.providerEndpoints?.[upstream.provider];
  const baseUrl = ownEndpoint ?? upstream.baseUrl;
  if (baseUrl === undefined) return undefined;
  const apiKey = own ?? (principal.plan === 'byo-keys' ? undefined : upstream.hostedKey);
  if (apiKey === undefined) return undefined;
  const credentials: ProviderCredentials = { apiKey, baseUrl };
  if (upstream.apiVersion !== undefined) credentials.apiVersion = upstream.apiVersion;
  const breakerKey = baseUrl === upstream.baseUrl ? upstream.breakerKey : `${upstream.provider} ${baseUrl}`;
  return { credentials, keySource: own !== undefined ? 'byok' : 'hosted', breakerKey };
}

/** Providers with a hosted key and a usable base URL (what /v1/health counts). */
export function hostedProviders(upstreams: Upstreams): ProviderId[] {
  return PROVIDER_IDS.filter((provider) => upstreams[provider].baseUrl !== undefined && upstreams[provider].hostedKey !== undefined);
}
