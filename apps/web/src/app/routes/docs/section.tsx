import { DocsArticle } from '~/features/docs/components/docs-article';
import { API_REFERENCE_SLUG, docsEntry, docsHref, resolveSection } from '~/features/docs/docs-registry';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/section';

export const meta = ({ params }: Route.MetaArgs) => {
  const slug = resolveSection(params.section);
  if (slug === API_REFERENCE_SLUG) {
    return pageMeta(
      'API Reference · Docs',
      'Every Conductor /v1 endpoint: methods, parameters, authentication and examples, from the OpenAPI document.',
      docsHref(slug),
    );
  }
  const entry = docsEntry(slug);
  return pageMeta(`${entry.title} · Docs`, entry.description, docsHref(slug));
};

/** A docs section, or the generated API reference (/docs/api), both kept as prerendered HTML when the page hydrates. */
export default function DocsSection({ params }: Route.ComponentProps) {
  const slug = resolveSection(params.section);
  return <DocsArticle key={slug} slug={slug} />;
}
