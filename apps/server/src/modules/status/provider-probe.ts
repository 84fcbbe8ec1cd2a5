import type { ComponentStatus, ProviderId } from '@conductor/shared';
import type { Env } from '../../config/env.ts';

/** A probe slower than this counts as degraded. */
export const SLOW_PROBE_MS = 2_500;
export const PROBE_TIMEOUT_MS = 5_000;

interface ProbeTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * The cheapest authenticated call each provider offers: listing models costs no tokens.
 * Docs: platform.openai.com/docs/api-reference/models/list, docs.anthropic.com/en/api/models-list,
 * ai.google.dev/api/models#method:-models.list, learn.microsoft.com/azure/ai-services/openai/reference
 * (models list), docs.mistral.ai/api/#tag/models, docs.cohere.com/reference/list-models.
 */
export function probeTarget(provider: ProviderId, env: Env): ProbeTarget | null {
  const base = (configured: string | undefined, fallback: string) => (configured ?? fallback).replace(/\/+$/, '');
  switch (provider) {
    case 'openai':
      if (!env.OPENAI_API_KEY) return null;
      return {
        url: `${base(env.OPENAI_BASE_URL, 'https://api.openai.com/v1')}/models`,
        headers: { authorization: `Bearer ${env.OPENAI_API_KEY}` },
      };
    case 'anthropic':
      if (!env.ANTHROPIC_API_KEY) return null;
      return {
        url: `${base(env.ANTHROPIC_BASE_URL, 'https://api.anthropic.com')}/v1/models`,
        headers: { 'x-api-key': env.ANTHROPIC_API_KEY, 'anthropic-version': '2023-06-01' },
      };
    case 'google':
      if (!env.GOOGLE_API_KEY) return null;
      return {
        url: `${base(env.GOOGLE_BASE_URL, 'https://generativelanguage.googleapis.com')}/v1beta/models`,
        headers: { 'x-goog-api-key': env.GOOGLE_API_KEY },
      };
    case 'azure':
      if (!env.AZURE_OPENAI_API_KEY || !env.AZURE_OPENAI_BASE_URL) return null;
      return {
        url: `${base(env.AZURE_OPENAI_BASE_URL, '')}/openai/models?api-version=${encodeURIComponent(env.AZURE_OPENAI_API_VERSION)}`,
        headers: { 'api-key': env.AZURE_OPENAI_API_KEY },
      };
    case 'mistral':
      if (!env.MISTRAL_API_KEY) return null;
      return {
        url: `${base(env.MISTRAL_BASE_URL, 'https://api.mistral.ai/v1')}/models`,
        headers: { authorization: `Bearer ${env.MISTRAL_API_KEY}` },
      };
    case 'cohere':
      if (!env.COHERE_API_KEY) return null;
      return {
        url: `${base(env.COHERE_BASE_URL, 'https://api.cohere.com')}/v1/models`,
        headers: { authorization: `Bearer ${env.COHERE_API_KEY}` },
      };
  }
}

export type ProbeOutcome = { kind: 'response'; status: number; latencyMs: number } | { kind: 'failure'; latencyMs: number };

/**
 * What a probe says about a provider: unreachable, timed out or refusing our hosted key is an
 * outage (hosted traffic cannot be served); rate limiting, server errors and slowness are
 * degradation; any other answer (even a 404 from a differently shaped base URL) proves the
 * provider is up.
 */
export function classifyProbe(outcome: ProbeOutcome): ComponentStatus {
  if (outcome.kind === 'failure') return 'outage';
  if (outcome.status === 401 || outcome.status === 403) return 'outage';
  if (outcome.status === 429 || outcome.status >= 500) return 'degraded';
  return outcome.latencyMs > SLOW_PROBE_MS ? 'degraded' : 'operational';
}

export interface ProbeResult {
  status: ComponentStatus;
  latencyMs: number | null;
}

/** Calls a provider's models endpoint once, with a time-out; never throws. */
export async function probeProvider(
  provider: ProviderId,
  env: Env,
  fetchImpl: typeof fetch = fetch,
  now: () => number = performance.now.bind(performance),
): Promise<ProbeResult> {
  const target = probeTarget(provider, env);
  if (!target) return { status: 'outage', latencyMs: null };
  const started = now();
  let outcome: ProbeOutcome;
  try {
    const response = await fetchImpl(target.url, {
      method: 'GET',
      headers: target.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    // The body is not needed; release the connection.
    await response.body?.cancel().catch(() => undefined);
    outcome = { kind: 'response', status: response.status, latencyMs: Math.round(now() - started) };
  } catch {
    outcome = { kind: 'failure', latencyMs: Math.round(now() - started) };
  }
  return { status: classifyProbe(outcome), latencyMs: outcome.kind === 'response' ? outcome.latencyMs : null };
}
