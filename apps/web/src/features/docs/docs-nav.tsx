import { ChevronDown, Menu } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { DOCS_SECTIONS } from '~/config/docs';
import { cn } from '~/lib/cn';
import { API_REFERENCE_SLUG, DOCS_ORDER, docsHref } from './docs-registry';

const ITEM = 'block rounded-md px-3 py-1.5 transition-colors';
const CURRENT = 'bg-accent font-medium text-accent-foreground';
const OTHER = 'text-muted-foreground hover:bg-muted hover:text-foreground';

const titleOf = (slug: string) =>
  slug === API_REFERENCE_SLUG ? 'API Reference' : (DOCS_ORDER.find((item) => item.slug === slug)?.title ?? 'Introduction');

/**
 * The docs side navigation (the spec's four groups); the current entry is highlighted. On a
 * small screen it is closed behind a "Docs menu" button, so that the article comes first; it
 * closes again once a link is followed. From `lg` up it is always open.
 */
export function DocsNav({ current }: { current: string }) {
  const [open, setOpen] = useState(false);
  // Close when the page changes (a link here, the pager or the search): adjusted while rendering.
  const [openedOn, setOpenedOn] = useState(current);
  if (openedOn !== current) {
    setOpenedOn(current);
    setOpen(false);
  }
  const id = useId();
  const panelId = `${id}-panel`;
  return (
    <nav aria-label="Documentation" className="text-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center gap-2 rounded-lg border border-border bg-card px-3 py-2 text-left lg:hidden"
      >
        <Menu className="size-4 shrink-0" aria-hidden="true" />
        <span className="shrink-0 font-medium">Docs menu</span>
        <span className="min-w-0 flex-1 truncate text-muted-foreground">{titleOf(current)}</span>
        <ChevronDown className={cn('size-4 shrink-0 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      <div
        id={panelId}
        className={cn(
          open ? 'grid' : 'hidden',
          'mt-4 grid-cols-2 gap-x-4 gap-y-5 sm:grid-cols-4 lg:mt-0 lg:grid lg:grid-cols-1 lg:gap-y-6',
        )}
      >
        {DOCS_SECTIONS.map((group, index) => (
          <div key={group.group} className="min-w-0">
            {/* A label, not a heading: the page's h1 comes first in the outline. */}
            <p id={`${id}-group-${index}`} className="px-3 font-semibold">
              {group.group}
            </p>
            <ul aria-labelledby={`${id}-group-${index}`} className="mt-2 space-y-0.5">
              {group.items.map((item) => (
                <li key={item.slug}>
                  <NavLink slug={item.slug} title={item.title} current={current} onFollow={() => setOpen(false)} />
                </li>
              ))}
              {group.group === 'API Reference' && (
                <li>
                  <NavLink slug={API_REFERENCE_SLUG} title="All endpoints" current={current} onFollow={() => setOpen(false)} />
                </li>
              )}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

function NavLink({ slug, title, current, onFollow }: { slug: string; title: string; current: string; onFollow: () => void }) {
  return (
    <Link
      to={docsHref(slug)}
      aria-current={current === slug ? 'page' : undefined}
      onClick={onFollow}
      className={cn(ITEM, current === slug ? CURRENT : OTHER)}
    >
      {title}
    </Link>
  );
}
