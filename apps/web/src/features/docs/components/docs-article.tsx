import { type ComponentType, lazy, Suspense } from 'react';
import { DOCS_SECTIONS } from '~/config/site';
import { docsEntry, loadDocsPage } from '../docs-registry';
import { DocsBlocks } from './docs-blocks';
import { DocsPager } from './docs-pager';
import { DocsToc } from './docs-toc';

const contents = new Map<string, ComponentType>();

/** Each section's content is its own chunk; prerendering waits for it, hydration keeps the static HTML until it arrives. */
function contentFor(slug: string): ComponentType {
  let Content = contents.get(slug);
  if (!Content) {
    Content = lazy(async () => {
      const page = await loadDocsPage(slug);
      return { default: () => <DocsBlocks blocks={page.blocks} /> };
    });
    contents.set(slug, Content);
  }
  return Content;
}

function ContentSkeleton() {
  return (
    <div className="mt-8 space-y-3" aria-busy="true">
      <span className="sr-only">Loading…</span>
      {[92, 80, 86, 60].map((width) => (
        <div key={width} className="h-4 animate-pulse rounded bg-muted" style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}

export function DocsArticle({ slug }: { slug: string }) {
  const entry = docsEntry(slug);
  const group = DOCS_SECTIONS.find((candidate) => candidate.items.some((item) => item.slug === entry.slug))?.group;
  const Content = contentFor(entry.slug);
  return (
    <div className="xl:grid xl:grid-cols-[minmax(0,1fr)_13rem] xl:gap-12">
      <article className="min-w-0 max-w-[75ch]" data-docs-section={entry.slug}>
        {group && <p className="text-sm font-semibold text-primary">{group}</p>}
        <h1 className="mt-1 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{entry.title}</h1>
        {entry.description && <p className="mt-3 text-lg text-muted-foreground text-pretty">{entry.description}</p>}
        <Suspense fallback={<ContentSkeleton />}>
          <Content />
        </Suspense>
        <DocsPager slug={entry.slug} />
      </article>
      <aside className="hidden xl:block">
        <div className="sticky top-24 max-h-[calc(100dvh-8rem)] overflow-y-auto">
          <DocsToc headings={entry.headings} />
        </div>
      </aside>
    </div>
  );
}
