import { useId } from 'react';
import type { CodeTab } from '../docs-types';
import { CopyButton } from './copy-button';

type CodeTabView = Pick<CodeTab, 'label' | 'html'>;

const GROUP = 'docs-code-group my-6 overflow-hidden rounded-lg border border-border bg-card';
const HEADER = 'flex items-center justify-between gap-2 border-b border-border px-2 py-1';
const TAB =
  'h-7 shrink-0 rounded-md px-2 text-xs font-medium text-muted-foreground transition-colors hover:text-foreground data-[state=active]:bg-accent data-[state=active]:text-accent-foreground';

/** Highlighted at build time by shiki: the HTML is our own content. */
function Highlighted({ tab }: { tab: CodeTabView }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time shiki output of our own code samples.
  return <div className="docs-code" dangerouslySetInnerHTML={{ __html: tab.html }} />;
}

/**
 * A code block, or several languages of one example as WAI-ARIA tabs (every panel in the
 * page, the others hidden), with a copy button that copies the code shown. The markup of the
 * first tab selected: choosing a tab, the remembered language and copying are `enhanceDocs`.
 */
export function CodeGroup({ tabs }: { tabs: CodeTabView[] }) {
  const base = useId();
  const [first] = tabs;
  if (!first) return null;
  if (tabs.length === 1) {
    return (
      <div className={GROUP} data-testid="code-block">
        <div className={HEADER}>
          <span className="px-1 text-xs font-medium text-muted-foreground">{first.label}</span>
          <CopyButton />
        </div>
        <Highlighted tab={first} />
      </div>
    );
  }
  const id = (part: 'tab' | 'panel', index: number) => `${base}-${part}-${index}`;
  return (
    <div className={GROUP} data-testid="code-block" data-docs-tabs="">
      <div className={HEADER}>
        <div role="tablist" aria-orientation="horizontal" aria-label="Language" className="flex min-w-0 gap-1 overflow-x-auto">
          {tabs.map((tab, index) => (
            <button
              key={tab.label}
              type="button"
              role="tab"
              id={id('tab', index)}
              aria-selected={index === 0}
              aria-controls={id('panel', index)}
              tabIndex={index === 0 ? 0 : -1}
              data-state={index === 0 ? 'active' : 'inactive'}
              data-docs-tab={tab.label}
              className={TAB}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <CopyButton />
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.label}
          role="tabpanel"
          id={id('panel', index)}
          aria-labelledby={id('tab', index)}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the tabs pattern makes a panel without focusable content reachable by Tab.
          tabIndex={0}
          hidden={index !== 0}
          data-state={index === 0 ? 'active' : 'inactive'}
          className="focus-visible:outline-none"
        >
          <Highlighted tab={tab} />
        </div>
      ))}
    </div>
  );
}
