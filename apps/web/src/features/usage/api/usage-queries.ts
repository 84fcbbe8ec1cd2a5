import type { ActivityList, UsageCurrent, UsageMetrics, UsageRange } from '@conductor/shared/schemas/usage';
import { queryOptions } from '@tanstack/react-query';
import { api } from '~/lib/api-client';

export const usageKeys = {
  all: ['usage'] as const,
  current: () => [...usageKeys.all, 'current'] as const,
  metrics: (range: UsageRange) => [...usageKeys.all, 'metrics', range] as const,
  activity: (limit: number) => [...usageKeys.all, 'activity', limit] as const,
};

export const currentUsageQuery = () =>
  queryOptions({
    queryKey: usageKeys.current(),
    queryFn: ({ signal }) => api.get<UsageCurrent>('/observability/usage/current', { signal }),
  });

export const metricsQuery = (range: UsageRange) =>
  queryOptions({
    queryKey: usageKeys.metrics(range),
    queryFn: ({ signal }) => api.get<UsageMetrics>(`/observability/metrics?range=${range}`, { signal }),
  });

export const activityQuery = (limit = 5) =>
  queryOptions({
    queryKey: usageKeys.activity(limit),
    queryFn: ({ signal }) => api.get<ActivityList>(`/observability/usage/activity?limit=${limit}`, { signal }),
  });

export const usageExportUrl = (range: UsageRange) => `/api/v1/observability/usage/export?range=${range}`;
