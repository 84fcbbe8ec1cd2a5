import { use } from 'react';
import { DOCS_SECTIONS } from '~/config/docs';
import { loadDocsPage } from '../docs-pages';
import { DocsBlocks } from './docs-blocks';
import { DocsPager } from './docs-pager';
import { DocsToc } from './docs-toc';

/** A section's text, previous / next links and table of contents (loaded with the section; see `DocsArticle`). */
export default function DocsArticleBody({ slug }: { slug: string }) {
  const page = use(loadDocsPage(slug));
  const group = DOCS_SECTIONS.find((candidate) => candidate.items.some((item) => item.slug === page.slug))?.group;
  return (
    <>
      <article className="min-w-0 max-w-[75ch]" data-docs-section={page.slug}>
        {group && <p className="text-sm font-semibold text-primary">{group}</p>}
        <h1 className="mt-1 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{page.title}</h1>
        {page.description && <p className="mt-3 text-lg text-muted-foreground text-pretty">{page.description}</p>}
        <DocsBlocks blocks={page.blocks} />
        <DocsPager slug={page.slug} />
      </article>
      <DocsToc headings={page.headings} className="hidden xl:block" />
    </>
  );
}
