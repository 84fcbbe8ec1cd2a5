import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Cookie Policy', 'The cookies and local storage Conductor uses, and why.', '/cookies');

export default function Page() {
  return <PageFrame eyebrow="Legal" title="Cookie Policy" lead="The one cookie we set, and what we keep in your browser." />;
}
