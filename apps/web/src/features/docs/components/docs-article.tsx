import { lazy, type RefObject, Suspense, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { KEEP_MARKUP } from '~/components/ui/keep-markup';
import { RevealHashTarget, useHydrating } from '~/components/ui/prerendered';
import { followInternalLinks } from '~/lib/follow-internal-links';
import { enhanceDocs } from '../docs-enhance';
import { API_REFERENCE_SLUG } from '../docs-registry';

const ArticleBody = lazy(() => import('./docs-article-body'));
/** The generated reference of every endpoint (/docs/api): a section of its own, with its own data. */
const ApiReference = lazy(() => import('../api-reference/api-reference-page'));

/** The section the page was prerendered with: hydrating it keeps its HTML. */
const served =
  typeof document === 'undefined' ? null : document.querySelector<HTMLElement>('article[data-docs-section]')?.dataset.docsSection;

/**
 * One section, or the API reference; render it with `key={slug}`, so that another section is
 * a new article (see `useHydrating`). Hydrating the section the page was served with keeps
 * its HTML and loads none of its code or content (like `Prerendered`): tabs, copy buttons and
 * the table of contents get their behaviour from `enhanceDocs`. A client-side navigation
 * loads the section and renders it. Links inside navigate in the app.
 */
export function DocsArticle({ slug }: { slug: string }) {
  const keep = useHydrating() && served === slug;
  const root = useRef<HTMLDivElement>(null);
  const onClick = followInternalLinks(useNavigate());
  const layout = slug === API_REFERENCE_SLUG ? API_LAYOUT : LAYOUT;
  if (keep) {
    return (
      <>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks on the links inside; they stay focusable and keyboard-operable. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: keyboard activation of a link fires this same click event. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string keeps the prerendered children in place. */}
        <div ref={root} className={layout} onClick={onClick} dangerouslySetInnerHTML={KEEP_MARKUP} suppressHydrationWarning />
        <Enhance root={root} />
      </>
    );
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: as above.
    // biome-ignore lint/a11y/useKeyWithClickEvents: as above.
    <div ref={root} className={layout} onClick={onClick}>
      <Suspense fallback={<ArticleSkeleton />}>
        {slug === API_REFERENCE_SLUG ? <ApiReference /> : <ArticleBody slug={slug} />}
        <Enhance root={root} />
        <RevealHashTarget />
      </Suspense>
    </div>
  );
}

const LAYOUT = 'xl:grid xl:grid-cols-[minmax(0,1fr)_13rem] xl:gap-12';
/** The reference's table of contents lists every endpoint: a wider column. */
const API_LAYOUT = 'xl:grid xl:grid-cols-[minmax(0,1fr)_14rem] xl:gap-12';

/** Gives the section's markup its behaviour once it is on the page. */
function Enhance({ root }: { root: RefObject<HTMLElement | null> }) {
  useEffect(() => (root.current ? enhanceDocs(root.current) : undefined), [root]);
  return null;
}

function ArticleSkeleton() {
  return (
    <div className="min-w-0 max-w-[75ch] space-y-3" aria-busy="true">
      <span className="sr-only">Loading…</span>
      {[40, 92, 80, 86, 60].map((width) => (
        <div key={width} className="h-4 animate-pulse rounded bg-muted" style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}
