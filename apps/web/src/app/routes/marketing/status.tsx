import { PageFrame } from '~/components/layouts/page-frame';
import { StatusPage } from '~/features/marketing/components/status-page';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'System Status',
    'Live status and 90-day uptime history of the Conductor API, gateway, database and upstream model providers.',
    '/status',
  );

export default function Page() {
  return (
    <PageFrame eyebrow="Status" title="System Status" lead="Live state of every Conductor component and its uptime over the last 90 days.">
      <StatusPage />
    </PageFrame>
  );
}
