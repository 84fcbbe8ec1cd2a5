import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('GDPR', 'How Conductor complies with the EU General Data Protection Regulation and how to exercise your rights.', '/gdpr');

export default function Page() {
  return <PageFrame eyebrow="Legal" title="GDPR" lead="Your rights under the GDPR and how we honour them." />;
}
