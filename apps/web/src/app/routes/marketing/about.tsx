import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'About Conductor',
    'Conductor builds the reliable, cost-aware gateway between your application and every large language model provider.',
    '/about',
  );

export default function Page() {
  return <PageFrame eyebrow="Company" title="About Conductor" lead="We build the layer between your product and every model provider." />;
}
