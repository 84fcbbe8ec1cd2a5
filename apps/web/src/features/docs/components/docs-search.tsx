import { Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { cn } from '~/lib/cn';
import { loadMessages } from '~/lib/messages';
import { loadSearchIndex, searchDocs } from '../docs-registry';
import type { DocsIndexEntry } from '../docs-types';

interface SearchData {
  index: DocsIndexEntry[];
  noResults: string;
}

/**
 * Searches section titles and headings; `/` focuses it, arrows move, Enter opens. The index
 * (every section's headings) loads when the box gets focus, not with the page.
 */
export function DocsSearch() {
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);
  const [data, setData] = useState<SearchData | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const listId = useId();
  const results = useMemo(() => (data ? searchDocs(data.index, query) : []), [data, query]);
  const open = query.trim().length > 0 && data !== null;
  const load = () => {
    loading.current ??= Promise.all([loadSearchIndex(), loadMessages()])
      .then(([index, messages]) => setData({ index, noResults: messages.support.noResults }))
      .catch(() => {
        loading.current = null;
      });
  };

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const go = (href: string) => {
    setQuery('');
    navigate(href);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((index) => (index + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      const result = results[activeIndex];
      if (result) {
        event.preventDefault();
        go(result.href);
      }
    } else if (event.key === 'Escape') {
      setQuery('');
    }
  };

  return (
    <div className="relative">
      <label className="sr-only" htmlFor={`${listId}-input`}>
        Search documentation
      </label>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <input
        ref={input}
        id={`${listId}-input`}
        type="search"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && results[activeIndex] ? `${listId}-${activeIndex}` : undefined}
        autoComplete="off"
        placeholder="Search docs…"
        value={query}
        onFocus={load}
        onChange={(event) => {
          load();
          setQuery(event.target.value);
          setActiveIndex(0);
        }}
        onKeyDown={onKeyDown}
        className="h-9 w-full rounded-md border border-input bg-background pr-8 pl-9 text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
      />
      <kbd className="pointer-events-none absolute top-1/2 right-2 hidden -translate-y-1/2 rounded border border-border px-1.5 font-mono text-[10px] text-muted-foreground sm:block">
        /
      </kbd>
      {open && data && (
        <div className="absolute inset-x-0 top-full z-30 mt-1 rounded-md border border-border bg-card p-1 shadow-lg">
          {results.length === 0 ? (
            <p className="px-3 py-2 text-sm text-muted-foreground">{data.noResults}</p>
          ) : (
            <div id={listId} role="listbox" aria-label="Search results">
              {results.map((result, index) => (
                <div
                  key={result.href}
                  id={`${listId}-${index}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === activeIndex}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => go(result.href)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') go(result.href);
                  }}
                  onMouseEnter={() => setActiveIndex(index)}
                  className={cn('cursor-pointer rounded px-3 py-2 text-sm', index === activeIndex && 'bg-accent text-accent-foreground')}
                >
                  <span className="block font-medium">{result.heading ? result.heading.text : result.title}</span>
                  {result.heading && <span className="block text-xs text-muted-foreground">{result.title}</span>}
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
