import { DashboardPage } from '~/components/layouts/dashboard-page';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Settings', 'Your profile, password, provider keys and sessions.', '/dashboard/settings');

export default function Page() {
  return <DashboardPage title="Settings" description="Your profile, password, provider keys and sessions." />;
}
