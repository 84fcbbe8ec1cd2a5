import type { Invoice } from '@conductor/shared/schemas/billing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onServerError, onUnauthorized } from '~/lib/api-client';
import { InvoiceTable } from './invoice-table';

const { toast } = vi.hoisted(() => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('~/lib/toast', () => ({ toast }));

const RENEWAL: Invoice = {
  id: 'inv_1',
  number: 'INV-202604-0A1B2C3D',
  periodStart: '2026-04-01T00:00:00.000Z',
  periodEnd: '2026-05-01T00:00:00.000Z',
  amountCents: 2900,
  status: 'open',
  lines: [{ description: 'Pro plan (monthly), Apr 1, 2026 to Apr 30, 2026', amountCents: 2900 }],
  createdAt: '2026-04-01T00:00:00.000Z',
};

const downloadLink = () => screen.getByRole('link', { name: 'Download invoice INV-202604-0A1B2C3D' });

describe('invoice table', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('dates an invoice by its UTC day, as the invoice does, wherever the reader is', () => {
    // Midnight UTC on April 1 is still March 31 in New York.
    process.env.TZ = 'America/New_York';
    render(<InvoiceTable invoices={[RENEWAL]} />);
    const row = screen.getByTestId('invoice-row');
    expect(within(row).getAllByText('Apr 1, 2026')).toHaveLength(2);
    expect(within(row).queryByText(/Mar 31/)).toBeNull();
  });

  describe('download', () => {
    const saved: { name: string; href: string }[] = [];
    beforeEach(() => {
      saved.length = 0;
      toast.error.mockReset();
      vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:invoice');
      vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push({ name: this.download, href: this.getAttribute('href') ?? '' });
      });
    });

    it('fetches the file and saves it under the name the server gives, keeping its accessible name', async () => {
      const fetch = vi.fn().mockResolvedValue(
        new Response('<html>invoice</html>', {
          status: 200,
          headers: { 'content-type': 'text/html', 'content-disposition': 'attachment; filename="conductor-INV-202604-0A1B2C3D.html"' },
        }),
      );
      vi.stubGlobal('fetch', fetch);
      render(<InvoiceTable invoices={[RENEWAL]} />);
      expect(downloadLink()).toHaveAttribute('href', '/api/v1/billing/invoices/inv_1/download');
      await userEvent.click(downloadLink());
      await waitFor(() => expect(saved).toEqual([{ name: 'conductor-INV-202604-0A1B2C3D.html', href: 'blob:invoice' }]));
      expect(fetch).toHaveBeenCalledWith(
        '/api/v1/billing/invoices/inv_1/download',
        expect.objectContaining({ credentials: 'same-origin' }),
      );
      expect(toast.error).not.toHaveBeenCalled();
    });

    it('saves no error body: an ended session logs out (the spec’s handling), a server error gets the server-error toast', async () => {
      const loggedOut = vi.fn();
      const serverError = vi.fn();
      const stopUnauthorized = onUnauthorized(loggedOut);
      const stopServerError = onServerError(serverError);
      try {
        const json = (status: number, code: string) =>
          new Response(JSON.stringify({ error: { code, message: 'x' } }), { status, headers: { 'content-type': 'application/json' } });
        vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(401, 'unauthorized')).mockResolvedValueOnce(json(500, 'internal')));
        render(<InvoiceTable invoices={[RENEWAL]} />);
        await userEvent.click(downloadLink());
        await waitFor(() => expect(loggedOut).toHaveBeenCalledTimes(1));
        await userEvent.click(downloadLink());
        await waitFor(() => expect(serverError).toHaveBeenCalledTimes(1));
        expect(saved).toEqual([]);
        // Both were announced by the client: no second toast.
        expect(toast.error).not.toHaveBeenCalled();
      } finally {
        stopUnauthorized();
        stopServerError();
      }
    });

    it('tells why when the file is refused (an invoice not found)', async () => {
      vi.stubGlobal(
        'fetch',
        vi
          .fn()
          .mockResolvedValue(
            new Response(JSON.stringify({ error: { code: 'not_found', message: 'Invoice not found.' } }), { status: 404 }),
          ),
      );
      render(<InvoiceTable invoices={[RENEWAL]} />);
      await userEvent.click(downloadLink());
      await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Invoice not found.'));
      expect(saved).toEqual([]);
    });
  });
});
