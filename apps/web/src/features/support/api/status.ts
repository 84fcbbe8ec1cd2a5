import { TIMEOUTS_MS } from '@conductor/shared';
import type { ComponentStatus, HealthResponse } from '@conductor/shared/schemas/health';
import type { StatusResponse } from '@conductor/shared/schemas/status';
import { publicApi } from '~/lib/api-client';
import type { PublicQueryOptions } from '~/lib/public-query';

/** Spec "Service status item": name, status, uptime. */
export interface ServiceStatusItem {
  name: string;
  status: ComponentStatus;
  /** Percent over the status history window; null when not measured yet. */
  uptimePercent: number | null;
}

export interface SystemStatus {
  overall: ComponentStatus;
  services: ServiceStatusItem[];
  checkedAt: string;
}

/** Live system status from GET /v1/status, or GET /v1/health when the history is unavailable. */
async function fetchSystemStatus(): Promise<SystemStatus> {
  try {
    const status = await publicApi.get<StatusResponse>('/status', { background: true });
    return {
      overall: status.status,
      checkedAt: status.checkedAt,
      services: status.components.map((component) => ({
        name: component.name,
        status: component.status,
        uptimePercent: component.uptimePercent,
      })),
    };
  } catch {
    const health = await publicApi.get<HealthResponse>('/health', { background: true });
    return {
      overall: health.status,
      checkedAt: health.timestamp,
      services: [
        { name: 'Database', status: health.checks.database, uptimePercent: null },
        { name: 'Gateway', status: health.checks.gateway, uptimePercent: null },
        // Reported by servers that share their limits and sessions through Redis.
        ...(health.checks.redis ? [{ name: 'Redis', status: health.checks.redis, uptimePercent: null }] : []),
      ],
    };
  }
}

/** A public read (`usePublicQuery`): the support pages do not load TanStack Query for it. */
export const systemStatusQueryOptions: PublicQueryOptions<SystemStatus> = {
  key: 'support:status',
  fetch: fetchSystemStatus,
  refetchInterval: TIMEOUTS_MS.healthRefresh,
  staleTime: TIMEOUTS_MS.healthRefresh,
};
