import { formatCents } from '@conductor/shared/schemas/billing';
import type { InvoiceRow } from './billing.repository.ts';

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

const longDate = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

const STATUS_LABEL: Record<InvoiceRow['status'], string> = {
  paid: 'Paid',
  open: 'Due (no card on file)',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

/** A self-contained, printable invoice (no scripts, no external assets): open it and print to PDF. */
export function renderInvoiceHtml(invoice: InvoiceRow, customer: { name: string; email: string }): string {
  const title = invoice.amountCents < 0 ? 'Credit note' : 'Invoice';
  const rows = invoice.lines
    .map((line) => `<tr><td>${escapeHtml(line.description)}</td><td class="amount">${formatCents(line.amountCents)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} ${escapeHtml(invoice.number)} · Conductor</title>
<style>
  :root { color-scheme: light; }
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2330; margin: 0; padding: 40px 24px; }
  main { max-width: 720px; margin: 0 auto; }
  header { display: flex; justify-content: space-between; gap: 24px; flex-wrap: wrap; border-bottom: 1px solid #e3e5ec; padding-bottom: 24px; }
  h1 { font-size: 28px; margin: 0 0 4px; }
  .brand { font-weight: 700; font-size: 20px; color: #4f46e5; }
  .muted { color: #5b6070; font-size: 14px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 24px 0; font-size: 14px; }
  dt { color: #5b6070; }
  dd { margin: 0; }
  table { width: 100%; border-collapse: collapse; margin-top: 16px; font-size: 14px; }
  th, td { text-align: left; padding: 10px 0; border-bottom: 1px solid #e3e5ec; }
  .amount { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; padding-left: 16px; }
  tfoot td { font-weight: 700; border-bottom: none; font-size: 16px; }
  footer { margin-top: 40px; font-size: 12px; color: #5b6070; }
  @media print { body { padding: 0; } }
</style>
</head>
<body>
<main>
  <header>
    <div>
      <div class="brand">Conductor</div>
      <div class="muted">LLM gateway · support@conductor.dev</div>
    </div>
    <div>
      <h1>${title}</h1>
      <div class="muted">${escapeHtml(invoice.number)}</div>
    </div>
  </header>
  <dl>
    <dt>Billed to</dt><dd>${escapeHtml(customer.name)} &lt;${escapeHtml(customer.email)}&gt;</dd>
    <dt>Issued</dt><dd>${longDate(invoice.createdAt)}</dd>
    <dt>Service period</dt><dd>${longDate(invoice.periodStart)} – ${longDate(new Date(invoice.periodEnd.getTime() - 1))}</dd>
    <dt>Status</dt><dd>${STATUS_LABEL[invoice.status]}</dd>
  </dl>
  <table>
    <thead><tr><th>Description</th><th class="amount">Amount (USD)</th></tr></thead>
    <tbody>
${rows}
    </tbody>
    <tfoot><tr><td>Total</td><td class="amount">${formatCents(invoice.amountCents)}</td></tr></tfoot>
  </table>
  <footer>Prices in US dollars. To save as PDF, use your browser's Print command and choose "Save as PDF".</footer>
</main>
</body>
</html>
`;
}
