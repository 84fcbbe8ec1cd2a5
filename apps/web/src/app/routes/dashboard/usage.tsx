import { DashboardPage } from '~/components/layouts/dashboard-page';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Usage', 'Tokens, requests, latency and cost over time.', '/dashboard/usage');

export default function Page() {
  return <DashboardPage title="Usage" description="Tokens, requests, latency and cost over time." />;
}
