import { bySlug } from './docs-registry';
import type { DocsPageData } from './docs-types';

/** Full sections (blocks and headings), one chunk each, loaded on demand. */
const PAGE_LOADERS = bySlug(import.meta.glob<DocsPageData>('./content/*.md', { import: 'default' }));

const pages = new Map<string, Promise<DocsPageData>>();

/** One section's content (the introduction for an unknown slug), loaded once. */
export function loadDocsPage(slug: string): Promise<DocsPageData> {
  let page = pages.get(slug);
  if (!page) {
    const loader = PAGE_LOADERS[slug] ?? PAGE_LOADERS.introduction;
    page = loader ? loader() : Promise.reject(new Error(`No docs content for ${slug}`));
    pages.set(slug, page);
  }
  return page;
}
