import { Tabs } from 'radix-ui';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { CodeTab } from '../docs-types';
import { CopyButton } from './copy-button';

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

/** Highlighted at build time by shiki; the HTML is our own content. */
function Highlighted({ tab }: { tab: CodeTab }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time shiki output of our own code samples.
  return <div className="docs-code" dangerouslySetInnerHTML={{ __html: tab.html }} />;
}

/** A code block, or several languages of one example as tabs, each with a copy button. */
export function CodeGroup({ tabs }: { tabs: CodeTab[] }) {
  const { label, choose } = useContext(LanguageContext);
  const [first] = tabs;
  if (!first) return null;
  if (tabs.length === 1) {
    return (
      <div className="docs-code-group my-6 overflow-hidden rounded-lg border border-border bg-card" data-testid="code-block">
        <div className={HEADER}>
          <span className="px-1 text-xs font-medium text-muted-foreground">{first.label}</span>
          <CopyButton text={first.code} />
        </div>
        <Highlighted tab={first} />
      </div>
    );
  }
  const active = tabs.find((tab) => tab.label === label) ?? first;
  return (
    <Tabs.Root
      value={active.label}
      onValueChange={choose}
      className="docs-code-group my-6 overflow-hidden rounded-lg border border-border bg-card"
      data-testid="code-block"
    >
      <div className={HEADER}>
        <Tabs.List aria-label="Language" className="flex min-w-0 gap-1 overflow-x-auto">
          {tabs.map((tab) => (
            <Tabs.Trigger
              key={tab.label}
              value={tab.label}
              className="h-7 shrink-0 rounded-md px-2 text-xs font-medium text-muted-foreground transition-colors hover:text-foreground data-[state=active]:bg-accent data-[state=active]:text-accent-foreground"
            >
              {tab.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <CopyButton text={active.code} />
      </div>
      {tabs.map((tab) => (
        <Tabs.Content key={tab.label} value={tab.label} className="focus-visible:outline-none">
          <Highlighted tab={tab} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
