import { describe, expect, it } from 'vitest';
import { componentHistory, dayRange } from './status.history.ts';

describe('status history', () => {
  it('lists the last N UTC days, oldest first, ending today', () => {
    const days = dayRange(Date.parse('2026-03-02T08:00:00Z'), 3);
    expect(days).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('shows the worst state of each day and the uptime share, with gaps for days without checks', () => {
    const days = ['2026-03-01', '2026-03-02', '2026-03-03'];
    const { days: bars, uptimePercent } = componentHistory('database', days, [
      { component: 'database', day: '2026-03-01', status: 'operational', checks: 1440 },
      { component: 'database', day: '2026-03-02', status: 'operational', checks: 1430 },
      { component: 'database', day: '2026-03-02', status: 'degraded', checks: 7 },
      { component: 'database', day: '2026-03-02', status: 'outage', checks: 3 },
      { component: 'api', day: '2026-03-03', status: 'outage', checks: 5 },
    ]);
    expect(bars).toEqual([
      { date: '2026-03-01', status: 'operational', uptimePercent: 100, checks: 1440 },
      { date: '2026-03-02', status: 'outage', uptimePercent: 99.79, checks: 1440 },
      { date: '2026-03-03', status: null, uptimePercent: null, checks: 0 },
    ]);
    expect(uptimePercent).toBe(99.89);
  });

  it('never rounds a partial outage up to 100%', () => {
    const { days: bars } = componentHistory(
      'api',
      ['2026-03-01'],
      [
        { component: 'api', day: '2026-03-01', status: 'operational', checks: 99_999 },
        { component: 'api', day: '2026-03-01', status: 'outage', checks: 1 },
      ],
    );
    expect(bars[0]?.uptimePercent).toBe(99.99);
  });

  it('has no uptime before the first check', () => {
    expect(componentHistory('api', ['2026-03-01'], []).uptimePercent).toBeNull();
  });
});
