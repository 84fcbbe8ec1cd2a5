import { DOCS_ALIASES, DOCS_SECTIONS, type DocsNavItem } from '~/config/docs';
import type { DocsIndexEntry, DocsMetaEntry, DocsPageData, DocsPageShell } from './docs-types';

/** Title and description of every section: small, bundled eagerly (page titles, headers). */
const metaModules = import.meta.glob<DocsMetaEntry>('./content/*.md', { query: '?meta', import: 'default', eager: true });
/** Full sections (blocks and headings), one chunk each, loaded on demand. */
const pageLoaders = import.meta.glob<DocsPageData>('./content/*.md', { import: 'default' });
/** What hydrating a prerendered section needs (its HTML is already in the page), one small chunk each. */
const shellLoaders = import.meta.glob<DocsPageShell>('./content/*.md', { query: '?shell', import: 'default' });

const bySlug = (modules: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(modules).map(([file, value]) => [file.replace(/^.*\/(.+)\.md$/, '$1'), value]));

export const DOCS_META = bySlug(metaModules) as Record<string, DocsMetaEntry>;
const PAGE_LOADERS = bySlug(pageLoaders) as Record<string, () => Promise<DocsPageData>>;
const SHELL_LOADERS = bySlug(shellLoaders) as Record<string, () => Promise<DocsPageShell>>;

/** Every section's headings for the search box, loaded when it is first used. */
export function loadSearchIndex(): Promise<DocsIndexEntry[]> {
  return import('virtual:docs-search-index').then((module) => module.default);
}

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

export function docsEntry(slug: string): DocsMetaEntry {
  const entry = DOCS_META[slug] ?? DOCS_META.introduction;
  if (!entry) throw new Error(`No docs content for ${slug}`);
  return entry;
}

export function loadDocsPage(slug: string): Promise<DocsPageData> {
  const loader = PAGE_LOADERS[slug] ?? PAGE_LOADERS.introduction;
  if (!loader) return Promise.reject(new Error(`No docs content for ${slug}`));
  return loader();
}

export function loadDocsShell(slug: string): Promise<DocsPageShell> {
  const loader = SHELL_LOADERS[slug] ?? SHELL_LOADERS.introduction;
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
