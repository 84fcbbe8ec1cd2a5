import { useSyncExternalStore } from 'react';

export type SiteMode = 'home' | 'waitlist';

/**
 * The server marks `<html data-site-mode>` (SITE_MODE). Prerendered HTML and hydration
 * see `null` (both readings rendered, CSS shows the right one); afterwards the client
 * reads the attribute and keeps one.
 */
export function useSiteMode(): SiteMode | null {
  return useSyncExternalStore(
    () => () => undefined,
    () => (document.documentElement.dataset.siteMode === 'waitlist' ? 'waitlist' : 'home'),
    () => null,
  );
}
