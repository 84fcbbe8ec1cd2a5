import type { Invoice } from '@conductor/shared/schemas/billing';
import { Download } from 'lucide-react';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { DownloadLink } from '~/components/ui/download-link';
import { Table, TableBody, TableHead, Td, Th } from '~/components/ui/table';
import { formatCents, formatUtcDate } from '~/lib/format';
import { invoiceDownloadUrl } from '../api/billing';

const STATUS: Record<Invoice['status'], { label: string; tone: 'success' | 'warning' | 'neutral' | 'danger' }> = {
  paid: { label: 'Paid', tone: 'success' },
  open: { label: 'Open', tone: 'warning' },
  void: { label: 'Void', tone: 'neutral' },
  uncollectible: { label: 'Uncollectible', tone: 'danger' },
};

/** Invoices are dated in UTC (a renewal on the 1st at 00:00 UTC is the 1st), as the invoice itself and the rest of Billing are. */
export function InvoiceTable({ invoices }: { invoices: Invoice[] }) {
  return (
    <Table aria-label="Invoice history">
      <TableHead>
        <tr>
          <Th>Invoice</Th>
          {/* On a phone the date goes under the invoice number: the row then fits without scrolling. */}
          <Th className="hidden sm:table-cell">Date</Th>
          <Th numeric>Amount</Th>
          <Th>Status</Th>
          <Th numeric>
            <span className="sr-only">Download</span>
          </Th>
        </tr>
      </TableHead>
      <TableBody>
        {invoices.map((invoice) => {
          const status = invoice.amountCents < 0 ? { label: 'Credit', tone: 'neutral' as const } : STATUS[invoice.status];
          return (
            <tr key={invoice.id} data-testid="invoice-row">
              <Td>
                <span className="font-mono text-xs">{invoice.number}</span>
                <span className="block text-xs whitespace-nowrap text-muted-foreground sm:hidden">{formatUtcDate(invoice.createdAt)}</span>
              </Td>
              <Td className="hidden whitespace-nowrap sm:table-cell">{formatUtcDate(invoice.createdAt)}</Td>
              <Td numeric>{formatCents(invoice.amountCents)}</Td>
              <Td>
                <Badge tone={status.tone}>{status.label}</Badge>
              </Td>
              <Td numeric>
                <DownloadLink
                  href={invoiceDownloadUrl(invoice.id)}
                  filename={`conductor-${invoice.number}.html`}
                  failure="Could not download the invoice."
                  className={buttonClasses('ghost', 'sm')}
                  aria-label={`Download invoice ${invoice.number}`}
                >
                  <Download className="size-4" aria-hidden="true" /> <span className="hidden sm:inline">Download</span>
                </DownloadLink>
              </Td>
            </tr>
          );
        })}
      </TableBody>
    </Table>
  );
}
