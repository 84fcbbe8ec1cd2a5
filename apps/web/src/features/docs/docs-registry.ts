import { DOCS_ALIASES, DOCS_SECTIONS, type DocsNavItem } from '~/config/site';
import type { DocsIndexEntry, DocsPageData } from './docs-types';

/** Titles, descriptions and headings of every section: small, bundled eagerly (search, TOC, meta). */
const indexModules = import.meta.glob<DocsIndexEntry>('./content/*.md', { query: '?index', import: 'default', eager: true });
/** Full sections, one chunk each, loaded on demand. */
const pageLoaders = import.meta.glob<DocsPageData>('./content/*.md', { import: 'default' });

const bySlug = (modules: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(modules).map(([file, value]) => [file.replace(/^.*\/(.+)\.md$/, '$1'), value]));

export const DOCS_INDEX = bySlug(indexModules) as Record<string, DocsIndexEntry>;
const PAGE_LOADERS = bySlug(pageLoaders) as Record<string, () => Promise<DocsPageData>>;

/** The generated API reference lives at /docs/api (and its alias /docs/api-reference). */
export const API_REFERENCE_SLUG = 'api';

export const DOCS_ORDER: readonly DocsNavItem[] = DOCS_SECTIONS.flatMap((group) => [...group.items]);

/** Resolves a URL section (including the spec's aliases) to a page; unknown sections show the introduction. */
export function resolveSection(section: string | undefined): string {
  if (!section) return 'introduction';
  const alias = DOCS_ALIASES[section];
  if (alias) return alias;
  return DOCS_ORDER.some((item) => item.slug === section) ? section : 'introduction';
}

export function docsHref(slug: string, hash?: string): string {
  return `${slug === 'introduction' ? '/docs' : `/docs/${slug}`}${hash ? `#${hash}` : ''}`;
}

export function docsEntry(slug: string): DocsIndexEntry {
  const entry = DOCS_INDEX[slug] ?? DOCS_INDEX.introduction;
  if (!entry) throw new Error(`No docs content for ${slug}`);
  return entry;
}

export function loadDocsPage(slug: string): Promise<DocsPageData> {
  const loader = PAGE_LOADERS[slug] ?? PAGE_LOADERS.introduction;
  if (!loader) return Promise.reject(new Error(`No docs content for ${slug}`));
  return loader();
}

/** Previous and next sections in side-navigation order. */
export function neighbours(slug: string): { previous: DocsNavItem | undefined; next: DocsNavItem | undefined } {
  const index = DOCS_ORDER.findIndex((item) => item.slug === slug);
  if (index === -1) return { previous: undefined, next: DOCS_ORDER[0] };
  return { previous: DOCS_ORDER[index - 1], next: DOCS_ORDER[index + 1] };
}

export interface DocsSearchResult {
  slug: string;
  title: string;
  /** Heading inside the section, when the match is a heading. */
  heading?: { id: string; text: string };
  href: string;
}

/** Case-insensitive search over section titles, descriptions and headings; titles rank first. */
export function searchDocs(query: string, limit = 8): DocsSearchResult[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  const matches = (text: string) => terms.every((term) => text.toLowerCase().includes(term));
  const titleHits: DocsSearchResult[] = [];
  const headingHits: DocsSearchResult[] = [];
  for (const item of DOCS_ORDER) {
    const entry = DOCS_INDEX[item.slug];
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
