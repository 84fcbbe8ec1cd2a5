import type { ReactNode } from 'react';
import { DOCS_ALIASES, DOCS_SECTIONS } from '~/config/site';

export interface DocsPage {
  slug: string;
  title: string;
  description: string;
  body: ReactNode;
}

const ALL_ITEMS = DOCS_SECTIONS.flatMap((group) => [...group.items]);

/** Resolves a URL section (including the spec's aliases) to a page; unknown sections show the introduction. */
export function resolveSection(section: string | undefined): string {
  if (!section) return 'introduction';
  const alias = DOCS_ALIASES[section];
  if (alias) return alias;
  return ALL_ITEMS.some((item) => item.slug === section) ? section : 'introduction';
}

export function docsPage(slug: string): DocsPage {
  const item = ALL_ITEMS.find((candidate) => candidate.slug === slug);
  const title = item?.title ?? (slug === 'api' ? 'API Reference' : 'Introduction');
  return {
    slug,
    title,
    description: `${title}: Conductor documentation.`,
    body: (
      <p>
        {slug === 'introduction'
          ? 'Conductor is an OpenAI-compatible gateway in front of OpenAI, Anthropic, Google, Azure, Mistral and Cohere. Point any OpenAI client at https://conductor.dev/v1 with a Conductor API key and your requests are routed, retried and metered.'
          : `${title} documentation.`}
      </p>
    ),
  };
}
