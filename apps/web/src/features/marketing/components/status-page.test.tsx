import type { StatusComponent, StatusResponse } from '@conductor/shared/schemas/status';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetPublicQueries } from '~/lib/public-query';
import { StatusPage } from './status-page';

const fetchStatus = vi.fn<() => Promise<StatusResponse>>();
vi.mock('../api/status', () => ({
  statusQueryOptions: () => ({ key: 'public/status', fetch: () => fetchStatus(), refetchInterval: 60_000, staleTime: 0, retry: 1 }),
}));

const component: StatusComponent = {
  id: 'api',
  name: 'API',
  description: 'The /v1 endpoints',
  group: 'platform',
  status: 'operational',
  latencyMs: 12,
  uptimePercent: 100,
  history: [{ date: '2025-01-10', status: 'operational', uptimePercent: 100, checks: 60 }],
};
const STATUS: StatusResponse = { status: 'operational', checkedAt: '2025-01-10T12:00:00.000Z', historyDays: 90, components: [component] };

const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

beforeEach(() => {
  vi.useFakeTimers();
  fetchStatus.mockReset();
});
afterEach(() => {
  resetPublicQueries();
  vi.useRealTimers();
});

describe('StatusPage', () => {
  it('shows the live state while refreshes succeed', async () => {
    fetchStatus.mockResolvedValue(STATUS);
    render(<StatusPage />);
    await advance(0);
    expect(screen.getByText('All systems operational')).toBeInTheDocument();
    await advance(60_000);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    expect(screen.queryByText(/could not refresh/)).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Overall status' })).not.toHaveAttribute('data-stale');
  });

  it('keeps one failed refresh quiet, then warns that the status shown is the last known one', async () => {
    fetchStatus.mockResolvedValueOnce(STATUS).mockRejectedValue(new Error('down'));
    render(<StatusPage />);
    await advance(0);
    const live = screen.getByRole('status');
    expect(live).toBeEmptyDOMElement();

    // One failed refresh (and its retry) is a blip: the page stays as it was.
    await advance(61_000);
    expect(live).toBeEmptyDOMElement();
    expect(screen.getByText('All systems operational')).toBeInTheDocument();

    // A second one: the data is two refreshes old and must not read as current.
    await advance(60_000);
    expect(live).toHaveTextContent(
      `We could not refresh the status. Showing what we last saw at ${new Date(STATUS.checkedAt).toLocaleString()}.`,
    );
    const overall = screen.getByRole('region', { name: 'Overall status' });
    expect(overall).toHaveAttribute('data-stale', 'true');
    expect(within(overall).getByText('Last known: All systems operational')).toBeInTheDocument();
    expect(screen.queryByText('All systems operational', { exact: true })).not.toBeInTheDocument();
  });

  it('clears the warning once Try again gets an answer', async () => {
    fetchStatus.mockResolvedValueOnce(STATUS).mockRejectedValueOnce(new Error('down')).mockRejectedValueOnce(new Error('down'));
    fetchStatus.mockRejectedValueOnce(new Error('down')).mockRejectedValueOnce(new Error('down'));
    render(<StatusPage />);
    await advance(121_000);
    expect(screen.getByRole('status')).toHaveTextContent('We could not refresh the status.');

    fetchStatus.mockResolvedValue({ ...STATUS, checkedAt: '2025-01-10T12:02:00.000Z' });
    fireEvent.click(within(screen.getByRole('status')).getByRole('button', { name: 'Try again' }));
    await advance(0);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(screen.getByText('All systems operational')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Overall status' })).not.toHaveAttribute('data-stale');
  });

  it('shows the error view when nothing has ever loaded', async () => {
    fetchStatus.mockRejectedValue(new Error('down'));
    render(<StatusPage />);
    await advance(1_000);
    expect(screen.getByRole('alert')).toHaveTextContent('We could not load the live status.');
  });
});
