import { type ComponentType, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { followInternalLinks } from '~/lib/follow-internal-links';
import { KEEP_MARKUP } from './keep-markup';

const subscribe = () => () => undefined;

/**
 * Static content of a prerendered page: text, images and plain links, no state and no
 * handlers. The build writes its HTML into the page; hydration keeps that HTML as it is
 * and never downloads the component (`content`, a `lazy()` component), so the page's
 * JavaScript carries only what is interactive. A client-side navigation to the page loads
 * and renders it like any lazy component. Links inside navigate in the app.
 *
 * The wrapper is `display: contents`, so it does not change the layout. `onShow` is called
 * when the content has loaded after a client-side render (a hydrated page has it from the start).
 */
export function Prerendered({ content: Content, onShow }: { content: ComponentType; onShow?: () => void }) {
  const keep = useHydrating();
  const navigate = useNavigate();
  const onClick = followInternalLinks(navigate);
  if (keep) {
    return (
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string keeps the prerendered children in place.
      // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks on the links inside; they stay focusable and keyboard-operable.
      // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard activation of a link fires this same click event.
      <div className="contents" onClick={onClick} dangerouslySetInnerHTML={KEEP_MARKUP} suppressHydrationWarning />
    );
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: as above.
    // biome-ignore lint/a11y/useKeyWithClickEvents: as above.
    <div className="contents" onClick={onClick}>
      <Suspense fallback={null}>
        <Content />
        <RevealHashTarget onShow={onShow} />
      </Suspense>
    </div>
  );
}

/**
 * Whether this component was first rendered by hydration, over prerendered HTML (fixed for
 * the life of the component; false on the server and for client-side renders). Key the
 * component by what it shows so that showing something else remounts it.
 */
export function useHydrating(): boolean {
  // React reads the server snapshot while it hydrates, and only then.
  const hydrating = useSyncExternalStore(subscribe, isFalse, isTrue);
  const [latched] = useState(() => hydrating && typeof document !== 'undefined');
  return latched;
}

/**
 * Place beside content that loads after a navigation: when it arrives, the element the URL's
 * #hash names (which the router looked for too early) is scrolled into view, and `onShow` is called.
 */
export function RevealHashTarget({ onShow }: { onShow?: (() => void) | undefined }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the content arrives.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
    onShow?.();
  }, []);
  return null;
}

function isFalse() {
  return false;
}
function isTrue() {
  return true;
}
