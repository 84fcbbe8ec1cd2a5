import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Careers', 'Join Conductor and build the infrastructure that routes AI traffic for developers everywhere.', '/careers');

export default function Page() {
  return <PageFrame eyebrow="Company" title="Careers" lead="Help us build the infrastructure AI products run on." />;
}
