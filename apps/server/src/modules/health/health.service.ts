import { PROVIDER_IDS, type HealthResponse, type ProviderId } from '@conductor/shared';
import type { Env } from '../../config/env.ts';

const API_KEY_VARIABLE: Record<ProviderId, keyof Env> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_API_KEY',
  azure: 'AZURE_OPENAI_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  cohere: 'COHERE_API_KEY',
};

/** Providers for which the server holds a hosted key. */
export function configuredProviders(env: Env): ProviderId[] {
  return PROVIDER_IDS.filter((provider) => {
    if (provider === 'azure') return Boolean(env.AZURE_OPENAI_API_KEY && env.AZURE_OPENAI_BASE_URL);
    return Boolean(env[API_KEY_VARIABLE[provider]]);
  });
}

export interface HealthDependencies {
  env: Env;
  pingDatabase(): Promise<boolean>;
  /** Providers currently healthy (breaker closed); defaults to every configured provider. */
  healthyProviders?(): ProviderId[];
  /** Whether Redis answers, when the server uses it. */
  redisUp?(): boolean;
  startedAt: number;
  now(): number;
  version: string;
}

export async function checkHealth(deps: HealthDependencies): Promise<HealthResponse> {
  const databaseUp = await deps.pingDatabase();
  const configured = configuredProviders(deps.env);
  const healthy = deps.healthyProviders ? deps.healthyProviders() : configured;
  const degradedProviders = configured.length > 0 && healthy.length < configured.length;
  const database = databaseUp ? 'operational' : 'outage';
  const gateway = degradedProviders ? 'degraded' : 'operational';
  // Without Redis every instance still serves (limits and throttles count in each): degraded, not down.
  const redis = deps.redisUp ? (deps.redisUp() ? 'operational' : 'degraded') : undefined;
  return {
    status: !databaseUp || redis === 'degraded' ? 'degraded' : gateway,
    version: deps.version,
    uptimeSeconds: Math.max(0, Math.floor((deps.now() - deps.startedAt) / 1000)),
    checks: { database, gateway, ...(redis ? { redis } : {}) },
    providers: { available: healthy.length, total: PROVIDER_IDS.length, configured },
    timestamp: new Date(deps.now()).toISOString(),
  };
}
