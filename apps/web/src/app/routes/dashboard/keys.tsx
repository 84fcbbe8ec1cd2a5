import { DashboardPage } from '~/components/layouts/dashboard-page';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('API Keys', 'Create and manage the keys your applications use to call Conductor.', '/dashboard/keys');

export default function Page() {
  return <DashboardPage title="API Keys" description="Create and manage the keys your applications use to call Conductor." />;
}
