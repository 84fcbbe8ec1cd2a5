import { DocsArticle } from '~/features/docs/docs-article';
import { docsPage, resolveSection } from '~/features/docs/docs-content';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/section';

export const meta = ({ params }: Route.MetaArgs) => {
  const page = docsPage(resolveSection(params.section));
  return pageMeta(`${page.title} · Docs`, page.description, `/docs/${params.section}`);
};

export default function DocsSection({ params }: Route.ComponentProps) {
  return <DocsArticle slug={resolveSection(params.section)} />;
}
