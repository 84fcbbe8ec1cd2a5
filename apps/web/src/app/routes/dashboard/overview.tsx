import { DashboardPage } from '~/components/layouts/dashboard-page';
import { useAuth } from '~/lib/auth';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Overview', 'Your Conductor usage at a glance.', '/dashboard');

export default function Overview() {
  const { user } = useAuth();
  const firstName = user?.name.trim().split(/\s+/)[0] || 'User';
  return <DashboardPage title={`Welcome back, ${firstName}`} description="Here is what is happening with your API." />;
}
