import { Link } from 'react-router';
import { DOCS_SECTIONS } from '~/config/docs';
import { cn } from '~/lib/cn';
import { API_REFERENCE_SLUG, docsHref } from './docs-registry';

const ITEM = 'block rounded-md px-3 py-1.5 transition-colors';
const CURRENT = 'bg-accent font-medium text-accent-foreground';
const OTHER = 'text-muted-foreground hover:bg-muted hover:text-foreground';

/** The docs side navigation (the spec's four groups); the current entry is highlighted. */
export function DocsNav({ current }: { current: string }) {
  return (
    <nav aria-label="Documentation" className="grid grid-cols-2 gap-x-4 gap-y-5 text-sm sm:grid-cols-4 lg:grid-cols-1 lg:gap-y-6">
      {DOCS_SECTIONS.map((group, index) => (
        <div key={group.group} className="min-w-0">
          {/* A label, not a heading: the page's h1 comes first in the outline. */}
          <p id={`docs-nav-group-${index}`} className="px-3 font-semibold">
            {group.group}
          </p>
          <ul aria-labelledby={`docs-nav-group-${index}`} className="mt-2 space-y-0.5">
            {group.items.map((item) => (
              <li key={item.slug}>
                <Link
                  to={docsHref(item.slug)}
                  aria-current={current === item.slug ? 'page' : undefined}
                  className={cn(ITEM, current === item.slug ? CURRENT : OTHER)}
                >
                  {item.title}
                </Link>
              </li>
            ))}
            {group.group === 'API Reference' && (
              <li>
                <Link
                  to={docsHref(API_REFERENCE_SLUG)}
                  aria-current={current === API_REFERENCE_SLUG ? 'page' : undefined}
                  className={cn(ITEM, current === API_REFERENCE_SLUG ? CURRENT : OTHER)}
                >
                  All endpoints
                </Link>
              </li>
            )}
          </ul>
        </div>
      ))}
    </nav>
  );
}
