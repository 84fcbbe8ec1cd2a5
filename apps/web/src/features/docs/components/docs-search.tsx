import { type KeyboardEvent, type RefObject, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { cn } from '~/lib/cn';
import { loadMessages } from '~/lib/messages';
import { loadSearchIndex, searchDocs } from '../docs-search-index';
import type { DocsIndexEntry } from '../docs-types';
import { SearchField, takeOver } from './docs-search-box';

interface SearchData {
  index: DocsIndexEntry[];
  noResults: string;
}

/**
 * Searches section titles and headings; arrows move, Enter opens. Loaded, with the index
 * (every section's headings), when the box (`DocsSearchBox`) is first used: it takes over
 * the box's text and focus.
 */
export default function DocsSearch({ from, typed }: { from: RefObject<HTMLInputElement | null>; typed: RefObject<string | null> }) {
  const [{ query: initialQuery, focused }] = useState(() => takeOver(from));
  const [query, setQuery] = useState(initialQuery);
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

  // Before the browser handles another event: a key pressed between the box's removal and a
  // later focus would land on the page, and text typed into the box after this rendered would be lost.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when it replaces the box.
  useLayoutEffect(() => {
    // What was last typed into the box (it recorded it; it is gone now), else what it held as this
    // rendered (text typed before the page hydrated fires no event).
    const text = typed.current ?? initialQuery;
    if (text !== initialQuery) setQuery(text);
    const element = input.current;
    if (focused && element) {
      element.focus();
      element.setSelectionRange(text.length, text.length);
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when it replaces the box.
  useEffect(() => load(), []);

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
    <>
      <SearchField
        ref={input}
        id={`${listId}-input`}
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && results[activeIndex] ? `${listId}-${activeIndex}` : undefined}
        value={query}
        onFocus={load}
        onChange={(event) => {
          load();
          setQuery(event.target.value);
          setActiveIndex(0);
        }}
        onKeyDown={onKeyDown}
      />
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
    </>
  );
}
