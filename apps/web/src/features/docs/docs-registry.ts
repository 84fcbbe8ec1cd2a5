import { DOCS_ALIASES, DOCS_SECTIONS, type DocsNavItem } from '~/config/docs';
import descriptions from 'virtual:docs-descriptions';
import type { DocsMetaEntry } from './docs-types';

/** Modules of `./content/<slug>.md` by slug. */
export const bySlug = <T>(modules: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(modules).map(([file, value]) => [file.replace(/^.*\/(.+)\.md$/, '$1'), value]));

/** Every section's description (bundled eagerly, for the pages' head), by slug. */
export const DOCS_DESCRIPTIONS: Record<string, string> = descriptions;

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

/** A section's title (as the side navigation names it) and description; the introduction's for an unknown slug. */
export function docsEntry(slug: string): DocsMetaEntry {
  const item = DOCS_ORDER.find((candidate) => candidate.slug === slug) ?? DOCS_ORDER[0];
  if (!item) throw new Error(`No docs content for ${slug}`);
  return { slug: item.slug, title: item.title, description: DOCS_DESCRIPTIONS[item.slug] ?? '' };
}

/** Previous and next sections in side-navigation order. */
export function neighbours(slug: string): { previous: DocsNavItem | undefined; next: DocsNavItem | undefined } {
  const index = DOCS_ORDER.findIndex((item) => item.slug === slug);
  if (index === -1) return { previous: undefined, next: DOCS_ORDER[0] };
  return { previous: DOCS_ORDER[index - 1], next: DOCS_ORDER[index + 1] };
}
