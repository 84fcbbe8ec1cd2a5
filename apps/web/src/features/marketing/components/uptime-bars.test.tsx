import type { StatusComponent, StatusDay } from '@conductor/shared/schemas/status';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UptimeBars } from './uptime-bars';

const empty = (date: string): StatusDay => ({ date, status: null, uptimePercent: null, checks: 0 });
const day = (date: string, status: StatusDay['status'], uptimePercent = 100): StatusDay => ({ date, status, uptimePercent, checks: 60 });

const component = (history: StatusDay[], uptimePercent: number | null): StatusComponent => ({
  id: 'api',
  name: 'API',
  description: 'The /v1 endpoints',
  group: 'platform',
  status: 'operational',
  latencyMs: null,
  uptimePercent,
  history,
});

describe('UptimeBars', () => {
  it('gives the uptime over the days that have data, not the whole window', () => {
    render(
      <UptimeBars component={component([empty('2025-01-08'), empty('2025-01-09'), day('2025-01-10', 'operational')], 100)} days={3} />,
    );
    expect(screen.getByText('100% uptime over 1 day')).toBeInTheDocument();
    expect(screen.getByRole('img')).toHaveAccessibleName('API, last 3 days: 100% uptime over 1 day.');
  });

  it('counts one day with problems in the singular and several in the plural', () => {
    const { rerender } = render(
      <UptimeBars component={component([day('2025-01-09', 'operational'), day('2025-01-10', 'outage', 90)], 95)} days={2} />,
    );
    expect(screen.getByRole('img')).toHaveAccessibleName('API, last 2 days: 95% uptime over 2 days, 1 day with problems.');
    rerender(<UptimeBars component={component([day('2025-01-09', 'degraded'), day('2025-01-10', 'outage', 90)], 95)} days={2} />);
    expect(screen.getByRole('img')).toHaveAccessibleName('API, last 2 days: 95% uptime over 2 days, 2 days with problems.');
  });

  it('says when there is no history yet', () => {
    render(<UptimeBars component={component([empty('2025-01-10')], null)} days={1} />);
    expect(screen.getByText('No history yet')).toBeInTheDocument();
  });
});
