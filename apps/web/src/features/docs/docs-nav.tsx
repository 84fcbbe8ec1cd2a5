import { NavLink } from 'react-router';
import { DOCS_SECTIONS } from '~/config/site';
import { cn } from '~/lib/cn';

/** The docs side navigation; the current entry is highlighted. */
export function DocsNav({ current }: { current: string }) {
  return (
    <nav aria-label="Documentation" className="space-y-6 text-sm">
      {DOCS_SECTIONS.map((group) => (
        <div key={group.group}>
          <h2 className="px-3 font-semibold">{group.group}</h2>
          <ul className="mt-2 space-y-0.5">
            {group.items.map((item) => (
              <li key={item.slug}>
                <NavLink
                  to={item.slug === 'introduction' ? '/docs' : `/docs/${item.slug}`}
                  aria-current={current === item.slug ? 'page' : undefined}
                  className={cn(
                    'block rounded-md px-3 py-1.5 transition-colors',
                    current === item.slug
                      ? 'bg-accent font-medium text-accent-foreground'
                      : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                  )}
                >
                  {item.title}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
