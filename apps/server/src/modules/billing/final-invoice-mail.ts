import { formatCents } from '@conductor/shared/schemas/billing';
import { mailGreeting } from '../../lib/mail-greeting.ts';
import type { MailMessage } from '../../lib/mailer.ts';
import { billingDay } from './billing-math.ts';
import type { InvoiceRow } from './billing.repository.ts';

export const FINAL_INVOICE_MAIL_KIND = 'final_invoice';

/** `Mar 1, 2026 – Mar 19, 2026`: the period's end is exclusive, as on the invoice document. */
function servicePeriod(start: Date, end: Date): string {
  const last = Math.max(start.getTime(), end.getTime() - 1);
  const first = billingDay(start.getTime());
  return billingDay(last) === first ? first : `${first} – ${billingDay(last)}`;
}

/**
 * The final invoice of an account being deleted (the overage it owed so far this period), sent
 * to its address once the deletion is done: its owner can no longer sign in to see it in Billing.
 */
export function finalInvoiceMail(input: {
  name: string;
  email: string;
  /** Whether the address was confirmed: the greeting names the account only then (`mailGreeting`). */
  verified: boolean;
  invoice: Pick<InvoiceRow, 'number' | 'periodStart' | 'periodEnd' | 'lines' | 'amountCents' | 'createdAt'>;
}): MailMessage {
  const { invoice } = input;
  const total = formatCents(invoice.amountCents);
  return {
    to: input.email,
    subject: `Your final Conductor invoice ${invoice.number}: ${total} due`,
    kind: FINAL_INVOICE_MAIL_KIND,
    text: [
      mailGreeting(input.name, input.verified),
      '',
      'Your Conductor account has been deleted. The tokens you used over your plan’s quota this billing period had not been billed yet, so they are on this final invoice:',
      '',
      `Invoice: ${invoice.number}`,
      `Issued: ${billingDay(invoice.createdAt.getTime())}`,
      `Service period: ${servicePeriod(invoice.periodStart, invoice.periodEnd)}`,
      '',
      ...invoice.lines.map((line) => `${line.description}: ${formatCents(line.amountCents)}`),
      '',
      `Total due: ${total}`,
      '',
      'This invoice is due now. As your account no longer exists, you cannot see it in Billing: keep this e-mail. We keep the invoice itself with our billing records, as we must. For any question about it, write to support@conductor.dev with its number.',
      '',
      'The Conductor team',
    ].join('\n'),
  };
}
