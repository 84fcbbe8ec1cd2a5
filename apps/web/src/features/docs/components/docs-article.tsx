import { Suspense, use } from 'react';
import { RevealHashTarget, useHydrating } from '~/components/ui/prerendered';
import { DOCS_SECTIONS } from '~/config/docs';
import { docsEntry, loadDocsPage, loadDocsShell } from '../docs-registry';
import type { DocsPageShell } from '../docs-types';
import { DocsBlocks } from './docs-blocks';
import { DocsPager } from './docs-pager';
import { DocsToc } from './docs-toc';

/**
 * The prerendered section this page was served with: hydrating it needs only its shell
 * (structure, code tab labels, headings), since the page already holds its HTML. The shell
 * loads before hydration starts (this module waits for it), so hydration never waits on it:
 * a suspended boundary would be re-rendered from scratch by the first context change.
 */
const served = typeof document === 'undefined' ? null : document.querySelector<HTMLElement>('article[data-docs-section]');
const servedShell = served?.dataset.docsSection ? await loadDocsShell(served.dataset.docsSection).catch(() => null) : null;

/** Each section's content and headings are their own chunk, for prerendering and client-side navigations. */
const pages = new Map<string, Promise<DocsPageShell>>();
function page(slug: string): Promise<DocsPageShell> {
  let promise = pages.get(slug);
  if (!promise) {
    promise = loadDocsPage(slug);
    pages.set(slug, promise);
  }
  return promise;
}

/** The section as this render needs it: its shell when hydrating the page it was served with, else all of it. */
function useSection(slug: string): DocsPageShell {
  const hydrating = useHydrating();
  return hydrating && servedShell?.slug === slug ? servedShell : use(page(slug));
}

function Content({ slug }: { slug: string }) {
  return <DocsBlocks blocks={useSection(slug).blocks} />;
}

function Toc({ slug }: { slug: string }) {
  return <DocsToc headings={useSection(slug).headings} />;
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

/** One section; render it with `key={slug}`, so that another section is a new article (see `useHydrating`). */
export function DocsArticle({ slug }: { slug: string }) {
  const entry = docsEntry(slug);
  const group = DOCS_SECTIONS.find((candidate) => candidate.items.some((item) => item.slug === entry.slug))?.group;
  return (
    <div className="xl:grid xl:grid-cols-[minmax(0,1fr)_13rem] xl:gap-12">
      <article className="min-w-0 max-w-[75ch]" data-docs-section={entry.slug}>
        {group && <p className="text-sm font-semibold text-primary">{group}</p>}
        <h1 className="mt-1 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{entry.title}</h1>
        {entry.description && <p className="mt-3 text-lg text-muted-foreground text-pretty">{entry.description}</p>}
        <Suspense fallback={<ContentSkeleton />}>
          <Content slug={entry.slug} />
          <RevealHashTarget />
        </Suspense>
        <DocsPager slug={entry.slug} />
      </article>
      <aside className="hidden xl:block">
        <div className="sticky top-24 max-h-[calc(100dvh-8rem)] overflow-y-auto">
          <Suspense fallback={null}>
            <Toc slug={entry.slug} />
          </Suspense>
        </div>
      </aside>
    </div>
  );
}
