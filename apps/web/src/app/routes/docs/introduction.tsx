import { DocsArticle } from '~/features/docs/components/docs-article';
import { docsEntry } from '~/features/docs/docs-registry';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Documentation', docsEntry('introduction').description, '/docs');

export default function DocsIntroduction() {
  return <DocsArticle slug="introduction" />;
}
