import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onServerError } from '~/lib/api-client';
import UsagePage from './usage';

const { toast } = vi.hoisted(() => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('~/lib/toast', () => ({ toast }));
vi.mock('~/features/usage/components/lazy-usage-chart', () => ({ LazyUsageChart: () => null }));

function renderUsage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UsagePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('usage: Export CSV', () => {
  const saved: string[] = [];
  const exports: string[] = [];
  let exportResponse: () => Response;
  beforeEach(() => {
    saved.length = 0;
    exports.length = 0;
    toast.error.mockReset();
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:usage');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url.startsWith('/api/v1/observability/usage/export')) {
          exports.push(url);
          return Promise.resolve(exportResponse());
        }
        return new Promise(() => undefined); // the page's figures stay loading: not what this is about
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('is a link that fetches the export and saves it under the server’s name', async () => {
    exportResponse = () =>
      new Response('period_start,model\r\n', {
        status: 200,
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="conductor-usage-7d-2026-03-15.csv"' },
      });
    renderUsage();
    const link = screen.getByRole('link', { name: 'Export CSV' });
    expect(link).toHaveAttribute('href', '/api/v1/observability/usage/export?range=7d');
    await userEvent.click(link);
    await waitFor(() => expect(saved).toEqual(['conductor-usage-7d-2026-03-15.csv']));
    expect(exports).toEqual(['/api/v1/observability/usage/export?range=7d']);
  });

  it('saves nothing on a server error, which gets the server-error toast', async () => {
    exportResponse = () => new Response(JSON.stringify({ error: { code: 'internal', message: 'boom' } }), { status: 500 });
    const serverError = vi.fn();
    const stop = onServerError(serverError);
    try {
      renderUsage();
      await userEvent.click(screen.getByRole('link', { name: 'Export CSV' }));
      await waitFor(() => expect(serverError).toHaveBeenCalledTimes(1));
      expect(saved).toEqual([]);
      expect(toast.error).not.toHaveBeenCalled();
    } finally {
      stop();
    }
  });
});
