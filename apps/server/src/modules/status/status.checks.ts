import { type ComponentStatus, PROVIDER_NAMES, type ProviderId } from '@conductor/shared';
import type { Env } from '../../config/env.ts';
import { configuredProviders } from '../health/health.service.ts';
import { type ProbeResult, probeProvider } from './provider-probe.ts';

export interface ComponentCheck {
  /** `api`, `gateway`, `database` or `provider:<id>`. */
  component: string;
  status: ComponentStatus;
  latencyMs: number | null;
}

export interface ComponentInfo {
  id: string;
  name: string;
  description: string;
  group: 'platform' | 'provider';
}

const PLATFORM: readonly ComponentInfo[] = [
  { id: 'api', name: 'API', description: 'Portal API, sign-in and the public endpoints', group: 'platform' },
  { id: 'gateway', name: 'Gateway', description: 'Chat completions, routing and failover', group: 'platform' },
  { id: 'database', name: 'Database', description: 'Accounts, API keys and usage records', group: 'platform' },
];

export const providerComponent = (provider: ProviderId) => `provider:${provider}`;

/** The components shown on /status: the platform, then every provider the server holds a hosted key for. */
export function statusComponents(env: Env): ComponentInfo[] {
  return [
    ...PLATFORM,
    ...configuredProviders(env).map((provider) => ({
      id: providerComponent(provider),
      name: PROVIDER_NAMES[provider],
      description: 'Upstream model provider (hosted key)',
      group: 'provider' as const,
    })),
  ];
}

/** Event-loop lag above this means the API answers slowly. */
export const API_LAG_DEGRADED_MS = 500;
/** A database round trip slower than this is degraded. */
export const DATABASE_SLOW_MS = 1_000;

export interface CheckDependencies {
  env: Env;
  pingDatabase(): Promise<boolean>;
  probe?(provider: ProviderId, env: Env): Promise<ProbeResult>;
  /** The gateway's view from real traffic: false while a provider's circuit breaker is open. */
  isProviderHealthy?(provider: ProviderId): boolean;
  /** Monotonic milliseconds for latencies. */
  elapsed?(): number;
}

/** Runs one round of checks: the API's own responsiveness, the database, each configured provider, then the gateway from those. */
export async function runChecks(deps: CheckDependencies): Promise<ComponentCheck[]> {
  const elapsed = deps.elapsed ?? (() => performance.now());
  const probe = deps.probe ?? ((provider: ProviderId, env: Env) => probeProvider(provider, env));

  const lagStarted = elapsed();
  await new Promise<void>((resolve) => setImmediate(resolve));
  const lag = Math.round(elapsed() - lagStarted);
  const api: ComponentCheck = { component: 'api', status: lag > API_LAG_DEGRADED_MS ? 'degraded' : 'operational', latencyMs: lag };

  const providers = configuredProviders(deps.env);
  const [database, ...probes] = await Promise.all([
    timeDatabase(deps.pingDatabase, elapsed),
    ...providers.map(async (provider) => {
      const result = await probe(provider, deps.env);
      // A provider that answers our probe but keeps failing real requests is still degraded.
      const breakerOpen = deps.isProviderHealthy ? !deps.isProviderHealthy(provider) : false;
      const status = breakerOpen && result.status === 'operational' ? 'degraded' : result.status;
      return { component: providerComponent(provider), status, latencyMs: result.latencyMs };
    }),
  ]);
  const gateway: ComponentCheck = {
    component: 'gateway',
    status: gatewayStatus(
      database.status,
      probes.map((check) => check.status),
    ),
    latencyMs: null,
  };
  return [api, gateway, database, ...probes];
}

async function timeDatabase(ping: () => Promise<boolean>, elapsed: () => number): Promise<ComponentCheck> {
  const started = elapsed();
  const up = await ping().catch(() => false);
  const latencyMs = Math.round(elapsed() - started);
  return {
    component: 'database',
    status: !up ? 'outage' : latencyMs > DATABASE_SLOW_MS ? 'degraded' : 'operational',
    latencyMs: up ? latencyMs : null,
  };
}

/**
 * The gateway cannot authenticate keys or meter usage without the database (outage). The
 * built-in sandbox always answers test keys, so failing providers only degrade it.
 */
export function gatewayStatus(database: ComponentStatus, providers: ComponentStatus[]): ComponentStatus {
  if (database === 'outage') return 'outage';
  if (database === 'degraded' || providers.some((status) => status !== 'operational')) return 'degraded';
  return 'operational';
}

/** Overall state: a platform outage is an outage; anything else short of all-green is degraded. */
export function overallStatus(checks: readonly ComponentCheck[]): ComponentStatus {
  const platform = checks.filter((check) => !check.component.startsWith('provider:'));
  if (platform.some((check) => check.status === 'outage')) return 'outage';
  if (checks.some((check) => check.status !== 'operational')) return 'degraded';
  return 'operational';
}
