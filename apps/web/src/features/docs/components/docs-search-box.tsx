import { Search } from 'lucide-react';
import { type ComponentProps, lazy, type RefObject, startTransition, Suspense, useEffect, useId, useRef, useState } from 'react';

const DocsSearch = lazy(() => import('./docs-search'));

/** The search box's label, icon, combobox input and `/` hint, as the box and the search both render it. */
export function SearchField({ id, ...input }: ComponentProps<'input'> & { id: string }) {
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        Search documentation
      </label>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <input
        id={id}
        type="search"
        role="combobox"
        aria-expanded={false}
        aria-autocomplete="list"
        autoComplete="off"
        placeholder="Search docs…"
        className="h-9 w-full rounded-md border border-input bg-background pr-8 pl-9 text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
        {...input}
      />
      <kbd className="pointer-events-none absolute top-1/2 right-2 hidden -translate-y-1/2 rounded border border-border px-1.5 font-mono text-[10px] text-muted-foreground sm:block">
        /
      </kbd>
    </>
  );
}

/**
 * The docs' search box; `/` focuses it. The page loads only the box: the search itself
 * (`DocsSearch`, with its index) loads when the box is first focused or typed into and takes
 * over its text and focus. A transition keeps the box on screen, typed into, until then; what is
 * typed is recorded as it comes, so text typed while the search renders is not lost with the box.
 */
export function DocsSearchBox() {
  const box = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const typed = useRef<string | null>(null);
  const [active, setActive] = useState(false);
  const activate = () => startTransition(() => setActive(true));
  const id = useId();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      box.current?.querySelector('input')?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div ref={box} className="relative">
      <Suspense fallback={null}>
        {active ? (
          <DocsSearch from={input} typed={typed} />
        ) : (
          <SearchField
            ref={input}
            id={`${id}-input`}
            aria-controls={id}
            onFocus={activate}
            onInput={(event) => {
              typed.current = event.currentTarget.value;
              activate();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}

/** What the search takes over from the box it replaces, as it renders: the text typed so far and the focus. */
export function takeOver(from: RefObject<HTMLInputElement | null>): { query: string; focused: boolean } {
  const element = from.current;
  return { query: element?.value ?? '', focused: element !== null && element === document.activeElement };
}
