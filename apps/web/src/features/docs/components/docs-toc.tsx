import { useEffect, useState } from 'react';
import { cn } from '~/lib/cn';
import type { DocsHeading } from '../docs-types';

/** "On this page": the section's headings, the one in view highlighted. Shown for longer pages. */
export function DocsToc({ headings }: { headings: DocsHeading[] }) {
  const [activeId, setActiveId] = useState<string | null>(null);
  useEffect(() => {
    const elements = headings
      .map((heading) => document.getElementById(heading.id))
      .filter((element): element is HTMLElement => element !== null);
    if (elements.length === 0 || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.filter((entry) => entry.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top);
        if (visible[0]) setActiveId(visible[0].target.id);
      },
      { rootMargin: '0px 0px -70% 0px' },
    );
    for (const element of elements) observer.observe(element);
    return () => observer.disconnect();
  }, [headings]);
  if (headings.length < 3) return null;
  return (
    <nav aria-label="On this page" className="text-sm">
      <h2 className="font-semibold">On this page</h2>
      <ul className="mt-3 space-y-1.5 border-l border-border">
        {headings.map((heading) => (
          <li key={heading.id}>
            <a
              href={`#${heading.id}`}
              className={cn(
                '-ml-px block border-l border-transparent py-0.5 text-muted-foreground transition-colors hover:text-foreground',
                heading.depth === 3 ? 'pl-6' : 'pl-3',
                activeId === heading.id && 'border-primary font-medium text-foreground',
              )}
            >
              {heading.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
