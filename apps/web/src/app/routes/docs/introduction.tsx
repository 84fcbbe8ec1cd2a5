import { DocsArticle } from '~/features/docs/docs-article';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Documentation', 'Learn how to route LLM requests through Conductor with any OpenAI-compatible client.', '/docs');

export default function DocsIntroduction() {
  return <DocsArticle slug="introduction" />;
}
