import type { DocsHeading } from '../docs-types';

/**
 * "On this page": the section's headings (the one in view is highlighted by `enhanceDocs`), in
 * the page's right column on wide screens. Shown for longer pages; a short page has no empty
 * landmark in its place.
 */
export function DocsToc({ headings, className }: { headings: DocsHeading[]; className?: string }) {
  if (headings.length < 3) return null;
  return (
    <aside aria-label="On this page" className={className}>
      <div className="sticky top-24 max-h-[calc(100dvh-8rem)] overflow-y-auto">
        <TocNav headings={headings} />
      </div>
    </aside>
  );
}

function TocNav({ headings }: { headings: DocsHeading[] }) {
  return (
    <nav aria-label="On this page" className="text-sm">
      <h2 className="font-semibold">On this page</h2>
      <ul className="mt-3 space-y-1.5 border-l border-border">
        {headings.map((heading) => (
          <li key={heading.id}>
            <a
              href={`#${heading.id}`}
              className={`-ml-px block border-l border-transparent py-0.5 text-muted-foreground transition-colors hover:text-foreground ${heading.depth === 3 ? 'pl-6' : 'pl-3'}`}
            >
              {heading.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
