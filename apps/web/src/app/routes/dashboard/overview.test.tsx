import type { ActivityItem } from '@conductor/shared/schemas/usage';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Overview from './overview';

const { api, activity } = vi.hoisted(() => ({
  api: { get: vi.fn(), post: vi.fn(), patch: vi.fn(), delete: vi.fn() },
  activity: { items: [] as unknown[], calls: 0 },
}));
vi.mock('~/lib/api-client', () => ({ api }));
vi.mock('~/lib/auth', () => ({
  useAuth: () => ({ user: { name: 'Ada Lovelace', createdAt: new Date().toISOString() } }),
  planLabel: (plan: string) => plan,
}));
vi.mock('~/features/usage/components/lazy-usage-chart', () => ({ LazyUsageChart: () => null }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const testKey = `cc_test_sk_${'b'.repeat(43)}`;
const request: ActivityItem = {
  id: 'req_1',
  requestId: 'req_1',
  model: 'gpt-4o-mini',
  provider: 'openai',
  environment: 'test',
  status: 'success',
  statusCode: 200,
  errorType: null,
  totalTokens: 21,
  latencyMs: 120,
  costMicros: 0,
  apiKeyName: 'First test key',
  createdAt: new Date().toISOString(),
};

function renderOverview() {
  // The app's read policy: stale after 5 minutes, no refetch on focus.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5 * 60 * 1000, refetchOnWindowFocus: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Overview />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const refreshIcon = () => screen.getByRole('button', { name: 'Refresh' }).querySelector('svg');

describe('overview: the first request card', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    activity.items = [];
    activity.calls = 0;
    api.get.mockImplementation((path: string) => {
      if (path.startsWith('/observability/usage/activity')) {
        activity.calls += 1;
        return Promise.resolve({ items: activity.items });
      }
      return new Promise(() => undefined); // the summary and the chart stay loading: not what this is about
    });
    api.post.mockResolvedValue({ key: testKey, apiKey: { name: 'First test key' } });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the first request by itself, keeping the new key on screen until dismissed, and then stops asking', async () => {
    const events = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderOverview();
    await events.click(await screen.findByRole('button', { name: 'Create a test key' }));
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent(testKey);
    expect(screen.getByText('Run this in a terminal; the request will appear here and on the Usage page.')).toBeInTheDocument();
    // Until the request is in, this is the empty state: nothing to dismiss.
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();

    // The request is made in a terminal: no click on Refresh, it appears within a few seconds.
    activity.items = [request];
    const polls = activity.calls;
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await waitFor(() => expect(screen.getByRole('list', { name: 'Recent activity' })).toHaveTextContent('First test key'));
    expect(activity.calls).toBeGreaterThan(polls);
    // Polls are not refreshes the user asked for: the Refresh button's icon does not turn for them.
    expect(refreshIcon()).not.toHaveClass('animate-spin');
    // The key is still there to copy.
    expect(screen.getByTestId('new-api-key')).toHaveTextContent(testKey);

    await events.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('new-api-key')).toBeNull();
    expect(screen.getByRole('list', { name: 'Recent activity' })).toBeInTheDocument();
    // The button pressed has gone: focus is on the list's heading, not lost to the page's start.
    expect(screen.getByRole('heading', { name: 'Recent activity' })).toHaveFocus();

    const calls = activity.calls;
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(activity.calls).toBe(calls);
  });

  it('does not turn the Refresh icon for the polls behind the first-request card', async () => {
    renderOverview();
    await screen.findByRole('button', { name: 'Create a test key' });
    const polls = activity.calls;
    // The next poll's answer does not come: the poll is under way while the page is looked at.
    api.get.mockImplementation((path: string) => {
      if (path.startsWith('/observability/usage/activity')) activity.calls += 1;
      return new Promise(() => undefined);
    });
    await act(() => vi.advanceTimersByTimeAsync(4_500));
    expect(activity.calls).toBe(polls + 1);
    expect(refreshIcon()).not.toHaveClass('animate-spin');
  });

  it('turns the Refresh icon while a refresh the user asked for is under way, and only then', async () => {
    const events = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    // Every query settles (the summary and the chart with an error: not what this is about).
    const answer = (path: string) =>
      path.startsWith('/observability/usage/activity') ? Promise.resolve({ items: [request] }) : Promise.reject(new Error('Not now'));
    api.get.mockImplementation(answer);
    renderOverview();
    await screen.findByRole('list', { name: 'Recent activity' });
    expect(refreshIcon()).not.toHaveClass('animate-spin');
    // The refresh asks again for everything on the page; the answers wait until released.
    const waiting: (() => void)[] = [];
    api.get.mockImplementation((path: string) => new Promise((resolve, reject) => waiting.push(() => answer(path).then(resolve, reject))));
    await events.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(refreshIcon()).toHaveClass('animate-spin');
    await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    await act(async () => {
      for (const release of waiting.splice(0)) release();
    });
    await waitFor(() => expect(refreshIcon()).not.toHaveClass('animate-spin'));
  });

  it('shows the key when a request from elsewhere took the card off the page while the key was being created', async () => {
    const events = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let created: (value: unknown) => void = () => undefined;
    api.post.mockReturnValue(new Promise((resolve) => (created = resolve)));
    renderOverview();
    await events.click(await screen.findByRole('button', { name: 'Create a test key' }));
    expect(screen.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    // Another client's request arrives first: with activity, the empty state leaves the page.
    activity.items = [{ ...request, apiKeyName: 'CI key' }];
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Creating...' })).toBeNull());
    await act(async () => created({ key: testKey, apiKey: { name: 'First test key' } }));
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent(testKey);
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
  });
});
