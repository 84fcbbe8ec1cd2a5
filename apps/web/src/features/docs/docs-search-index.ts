import { API_REFERENCE_SLUG, DOCS_ORDER, docsHref } from './docs-registry';
import type { DocsIndexEntry } from './docs-types';

/** Every section's headings for the search box, loaded when it is first used. */
export function loadSearchIndex(): Promise<DocsIndexEntry[]> {
  return import('virtual:docs-search-index').then((module) => module.default);
}

export interface DocsSearchResult {
  slug: string;
  title: string;
  /** Heading inside the section, when the match is a heading. */
  heading?: { id: string; text: string };
  href: string;
}

/** Case-insensitive search over section titles, descriptions and headings (`loadSearchIndex`); titles rank first. */
export function searchDocs(index: readonly DocsIndexEntry[], query: string, limit = 8): DocsSearchResult[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  const matches = (text: string) => terms.every((term) => text.toLowerCase().includes(term));
  const titleHits: DocsSearchResult[] = [];
  const headingHits: DocsSearchResult[] = [];
  for (const item of DOCS_ORDER) {
    const entry = index.find((candidate) => candidate.slug === item.slug);
    if (!entry) continue;
    if (matches(`${item.title} ${entry.title} ${entry.description}`))
      titleHits.push({ slug: item.slug, title: item.title, href: docsHref(item.slug) });
    for (const heading of entry.headings) {
      if (matches(heading.text)) {
        headingHits.push({
          slug: item.slug,
          title: item.title,
          heading: { id: heading.id, text: heading.text },
          href: docsHref(item.slug, heading.id),
        });
      }
    }
  }
  if (matches('API Reference OpenAPI endpoints parameters'))
    titleHits.push({ slug: API_REFERENCE_SLUG, title: 'API Reference', href: docsHref(API_REFERENCE_SLUG) });
  return [...titleHits, ...headingHits].slice(0, limit);
}
