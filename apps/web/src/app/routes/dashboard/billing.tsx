import { DashboardPage } from '~/components/layouts/dashboard-page';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Billing', 'Your plan, usage this month, invoices and payment method.', '/dashboard/billing');

export default function Page() {
  return <DashboardPage title="Billing" description="Your plan, usage this month, invoices and payment method." />;
}
