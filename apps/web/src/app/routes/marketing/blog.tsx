import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Blog', 'Engineering notes, product updates and guides from the Conductor team.', '/blog');

export default function Page() {
  return <PageFrame eyebrow="Company" title="Blog" lead="Engineering notes and product updates from the Conductor team." />;
}
