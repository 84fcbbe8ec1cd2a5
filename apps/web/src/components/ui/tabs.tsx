import {
  type ComponentProps,
  createContext,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useId,
  useState,
} from 'react';

/**
 * WAI-ARIA tabs (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): a tab list, one panel
 * shown at a time, arrow keys (and Home/End) moving between tabs and selecting them. The
 * same markup and `data-state` attributes as Radix Tabs, without its 10 KB.
 */
interface TabsState {
  value: string;
  select(value: string): void;
  id(part: 'tab' | 'panel', value: string): string;
}
const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('Tab parts must be inside <Tabs>');
  return state;
}

export function Tabs({
  value: controlled,
  defaultValue = '',
  onValueChange,
  children,
  ...props
}: Omit<ComponentProps<'div'>, 'defaultValue'> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  children: ReactNode;
}) {
  const [uncontrolled, setUncontrolled] = useState(defaultValue);
  const base = useId();
  const value = controlled ?? uncontrolled;
  const state: TabsState = {
    value,
    select(next) {
      if (next === value) return;
      setUncontrolled(next);
      onValueChange?.(next);
    },
    id: (part, tab) => `${base}-${part}-${tab}`,
  };
  return (
    <TabsContext value={state}>
      <div {...props}>{children}</div>
    </TabsContext>
  );
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

export function TabList({ children, ...props }: HTMLAttributes<HTMLDivElement> & { 'aria-label': string }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = MOVES[event.key];
    if (!move) return;
    const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const current = tabs.indexOf(event.target as HTMLButtonElement);
    if (current === -1) return;
    event.preventDefault();
    const next = tabs[move(current, tabs.length)];
    next?.focus();
    next?.click();
  };
  return (
    <div role="tablist" aria-orientation="horizontal" onKeyDown={onKeyDown} {...props}>
      {children}
    </div>
  );
}

export function Tab({ value, children, ...props }: HTMLAttributes<HTMLButtonElement> & { value: string }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.id('tab', value)}
      aria-selected={active}
      aria-controls={tabs.id('panel', value)}
      tabIndex={active ? 0 : -1}
      data-state={active ? 'active' : 'inactive'}
      onClick={() => tabs.select(value)}
      {...props}
    >
      {children}
    </button>
  );
}

/** The panel of one tab: only the selected tab's is rendered, or with `keepMounted` every one, the others hidden. */
export function TabPanel({
  value,
  keepMounted = false,
  children,
  ...props
}: HTMLAttributes<HTMLDivElement> & { value: string; keepMounted?: boolean }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  if (!active && !keepMounted) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.id('panel', value)}
      aria-labelledby={tabs.id('tab', value)}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the tabs pattern makes a panel without focusable content reachable by Tab.
      tabIndex={0}
      hidden={!active}
      data-state={active ? 'active' : 'inactive'}
      {...props}
    >
      {children}
    </div>
  );
}
