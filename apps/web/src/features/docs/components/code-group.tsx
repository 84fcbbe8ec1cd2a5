import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { KEEP_MARKUP } from '~/components/ui/prerendered';
import { Tab, TabList, TabPanel, Tabs } from '~/components/ui/tabs';
import { CopyButton } from './copy-button';

/** A tab as rendered: its label, and its highlighted HTML unless hydration keeps the prerendered one. */
type CodeTabView = { label: string; html?: string };

const STORAGE_KEY = 'conductor.docs.language';

interface LanguagePreference {
  label: string | null;
  choose(label: string): void;
}
const LanguageContext = createContext<LanguagePreference>({ label: null, choose: () => undefined });

/** One language choice for every tabbed code block of the docs, remembered across visits. */
export function LanguagePreferenceProvider({ children }: { children: ReactNode }) {
  const [label, setLabel] = useState<string | null>(null);
  useEffect(() => {
    // Read after hydration so the prerendered HTML (first tab) and the first render agree.
    setLabel(window.localStorage.getItem(STORAGE_KEY));
  }, []);
  const choose = useCallback((next: string) => {
    setLabel(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage may be unavailable (private mode): the choice still applies to this page.
    }
  }, []);
  const value = useMemo(() => ({ label, choose }), [label, choose]);
  return <LanguageContext value={value}>{children}</LanguageContext>;
}

const HEADER = 'flex items-center justify-between gap-2 border-b border-border px-2 py-1';

/** Highlighted at build time by shiki; the HTML is our own content (kept from the page when hydrating, `html` absent). */
function Highlighted({ tab }: { tab: CodeTabView }) {
  return (
    <div
      className="docs-code"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time shiki output of our own code samples.
      dangerouslySetInnerHTML={tab.html === undefined ? KEEP_MARKUP : { __html: tab.html }}
      suppressHydrationWarning
    />
  );
}

/**
 * A code block, or several languages of one example as tabs (every panel in the page, the
 * others hidden), each with a copy button that copies the code shown.
 */
export function CodeGroup({ tabs }: { tabs: CodeTabView[] }) {
  const { label, choose } = useContext(LanguageContext);
  const group = useRef<HTMLDivElement>(null);
  // The code shown, read from the highlighted block itself (its text is the source).
  const shownCode = () =>
    (group.current?.querySelector('[role="tabpanel"]:not([hidden]) pre') ?? group.current?.querySelector('.docs-code pre'))?.textContent ?? '';
  const [first] = tabs;
  if (!first) return null;
  if (tabs.length === 1) {
    return (
      <div ref={group} className="docs-code-group my-6 overflow-hidden rounded-lg border border-border bg-card" data-testid="code-block">
        <div className={HEADER}>
          <span className="px-1 text-xs font-medium text-muted-foreground">{first.label}</span>
          <CopyButton text={shownCode} />
        </div>
        <Highlighted tab={first} />
      </div>
    );
  }
  const active = tabs.find((tab) => tab.label === label) ?? first;
  return (
    <Tabs
      ref={group}
      value={active.label}
      onValueChange={choose}
      className="docs-code-group my-6 overflow-hidden rounded-lg border border-border bg-card"
      data-testid="code-block"
    >
      <div className={HEADER}>
        <TabList aria-label="Language" className="flex min-w-0 gap-1 overflow-x-auto">
          {tabs.map((tab) => (
            <Tab
              key={tab.label}
              value={tab.label}
              className="h-7 shrink-0 rounded-md px-2 text-xs font-medium text-muted-foreground transition-colors hover:text-foreground data-[state=active]:bg-accent data-[state=active]:text-accent-foreground"
            >
              {tab.label}
            </Tab>
          ))}
        </TabList>
        <CopyButton text={shownCode} />
      </div>
      {tabs.map((tab) => (
        <TabPanel key={tab.label} value={tab.label} keepMounted className="focus-visible:outline-none">
          <Highlighted tab={tab} />
        </TabPanel>
      ))}
    </Tabs>
  );
}
