/**
 * What the docs' pages do besides showing text: language tabs of the code blocks (one choice
 * for every block, remembered across visits), copy buttons and the table of contents that
 * follows the reading. The components render plain markup (code-group.tsx, docs-toc.tsx) and
 * this code, attached to the page once, gives it its behaviour: so a prerendered section
 * keeps its HTML when it hydrates and loads neither its components nor its content again.
 */

const STORAGE_KEY = 'conductor.docs.language';
const ACTIVE_TOC = ['border-primary', 'font-medium', 'text-foreground'];

/** Wires the docs behaviour into `root`; returns the clean-up. */
export function enhanceDocs(root: HTMLElement): () => void {
  const stored = readStoredLanguage();
  if (stored) selectLanguage(root, stored);
  const onClick = (event: MouseEvent) => {
    const target = event.target as Element;
    const tab = target.closest<HTMLButtonElement>('[data-docs-tab]');
    if (tab) {
      const label = tab.dataset.docsTab ?? '';
      selectLanguage(root, label);
      storeLanguage(label);
      return;
    }
    const copy = target.closest<HTMLButtonElement>('[data-docs-copy]');
    // Copying loads with the first click (within the click's user activation).
    if (copy) void import('./docs-copy').then((module) => module.copyShownCode(copy));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const move = MOVES[event.key];
    const tab = (event.target as Element).closest?.<HTMLButtonElement>('[data-docs-tab]');
    const list = tab?.parentElement;
    if (!move || !tab || !list) return;
    const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    event.preventDefault();
    const next = tabs[move(tabs.indexOf(tab), tabs.length)];
    next?.focus();
    next?.click();
  };
  root.addEventListener('click', onClick);
  root.addEventListener('keydown', onKeyDown);
  const stopToc = followToc(root);
  return () => {
    root.removeEventListener('click', onClick);
    root.removeEventListener('keydown', onKeyDown);
    stopToc();
  };
}

/** WAI-ARIA tabs (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): arrows, Home and End move and select. */
const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/** Shows `label` in every tabbed block that has it. */
function selectLanguage(root: HTMLElement, label: string): void {
  for (const group of root.querySelectorAll<HTMLElement>('[data-docs-tabs]')) {
    const tabs = [...group.querySelectorAll<HTMLButtonElement>('[data-docs-tab]')];
    if (!tabs.some((tab) => tab.dataset.docsTab === label)) continue;
    for (const tab of tabs) {
      const active = tab.dataset.docsTab === label;
      tab.setAttribute('aria-selected', String(active));
      tab.tabIndex = active ? 0 : -1;
      tab.dataset.state = active ? 'active' : 'inactive';
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
      if (panel) {
        panel.hidden = !active;
        panel.dataset.state = tab.dataset.state;
      }
    }
  }
}

function readStoredLanguage(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeLanguage(label: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, label);
  } catch {
    // Storage may be unavailable (private mode): the choice still applies to this page.
  }
}

/** Highlights the table of contents' entry of the heading in view. */
function followToc(root: HTMLElement): () => void {
  const links = [...root.querySelectorAll<HTMLAnchorElement>('nav[aria-label="On this page"] a[href^="#"]')];
  const headings = links
    .map((link) => document.getElementById(decodeURIComponent(link.hash.slice(1))))
    .filter((element): element is HTMLElement => element !== null);
  if (headings.length === 0 || typeof IntersectionObserver === 'undefined') return () => undefined;
  const observer = new IntersectionObserver(
    (entries) => {
      const visible = entries.filter((entry) => entry.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top);
      const id = visible[0]?.target.id;
      if (!id) return;
      for (const link of links) for (const name of ACTIVE_TOC) link.classList.toggle(name, link.hash === `#${id}`);
    },
    { rootMargin: '0px 0px -70% 0px' },
  );
  for (const heading of headings) observer.observe(heading);
  return () => observer.disconnect();
}
