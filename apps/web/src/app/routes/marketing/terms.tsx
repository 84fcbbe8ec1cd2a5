import { PageFrame } from '~/components/layouts/page-frame';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Terms of Service', 'The terms that govern your use of the Conductor gateway, dashboard and APIs.', '/terms');

export default function Page() {
  return <PageFrame eyebrow="Legal" title="Terms of Service" lead="The agreement between you and Conductor, Inc." />;
}
