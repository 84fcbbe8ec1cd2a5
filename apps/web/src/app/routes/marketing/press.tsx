import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Press', 'Press resources, company facts and media contacts for Conductor.', '/press');

export default function Page() {
  return <PageFrame eyebrow="Company" title="Press" lead="Company facts, brand assets and media contacts." />;
}
