import { type ComponentType, lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { KEEP_MARKUP } from './keep-markup';
import { useHydrating } from './prerendered';

/** What starts loading a kept form: a pointer on it, focus inside it, a submit or a picked file. */
const FIRST_USE = ['pointerdown', 'focusin', 'submit', 'change'] as const;

/** Needed only when a kept form is replaced: it loads with the form's code. */
const loadSnapshot = () => import('~/lib/form-snapshot');

/**
 * A form of a prerendered page whose code loads when it is first used. Hydration keeps the
 * prerendered form as HTML (like `Prerendered`), which works as a plain form meanwhile: the
 * first pointer on it, focus inside it, submit or picked file loads the component, which
 * then replaces it with what the visitor typed, picked and focused (`FormSnapshot`); a
 * submit made meanwhile is made again. `eager` loads it at once (a signed-in user, whose form is not
 * the prerendered one; a request to fill it in). A client-side render loads it at once.
 *
 * The wrapper is `display: contents`, so it does not change the layout.
 */
export function PrerenderedForm<P extends object>({
  load,
  props,
  eager = false,
}: {
  /** The form's module (a function defined once, outside the component). */
  load: () => Promise<{ default: ComponentType<P> }>;
  props: P;
  eager?: boolean;
}) {
  const keep = useHydrating();
  const [Lazy] = useState(() => lazy(load));
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(null);
  const kept = useRef<HTMLDivElement>(null);
  const live = useRef<HTMLDivElement>(null);
  /** Puts what the visitor did into the live form (taken from the kept one), and whether they submitted it. */
  const handOver = useRef<{ restore: ((root: HTMLElement) => void) | null; submit: boolean }>({ restore: null, submit: false });
  const started = useRef(false);

  useEffect(() => {
    const root = kept.current;
    if (!keep || !root) return;
    const start = () => {
      if (started.current) return;
      started.current = true;
      Promise.all([load(), loadSnapshot()]).then(
        ([module, { takeFormSnapshot, restoreFormSnapshot }]) => {
          if (!kept.current) return;
          // Taken and swapped in one task: nothing typed in between is lost.
          const form = takeFormSnapshot(kept.current);
          handOver.current.restore = (target) => form && restoreFormSnapshot(target, form);
          flushSync(() => setLoaded(() => module.default));
        },
        // Offline, say: the next use tries again.
        () => {
          started.current = false;
        },
      );
    };
    const onUse = (event: Event) => {
      if (event.type === 'submit') {
        event.preventDefault();
        handOver.current.submit = true;
      }
      start();
    };
    for (const type of FIRST_USE) root.addEventListener(type, onUse);
    if (eager) start();
    return () => {
      for (const type of FIRST_USE) root.removeEventListener(type, onUse);
    };
  }, [keep, eager, load]);

  // Before the component's own effects run (which may fill the form in or move focus).
  useLayoutEffect(() => {
    const root = live.current;
    const { restore, submit } = handOver.current;
    if (!Loaded || !root) return;
    handOver.current = { restore: null, submit: false };
    restore?.(root);
    if (submit) root.querySelector('form')?.requestSubmit();
  }, [Loaded]);

  if (!keep) {
    return (
      <div className="contents">
        <Suspense fallback={null}>
          <Lazy {...props} />
        </Suspense>
      </div>
    );
  }
  if (!Loaded) {
    // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string keeps the prerendered form in place.
    return <div key="kept" ref={kept} className="contents" dangerouslySetInnerHTML={KEEP_MARKUP} suppressHydrationWarning />;
  }
  return (
    <div key="live" ref={live} className="contents">
      <Loaded {...props} />
    </div>
  );
}
