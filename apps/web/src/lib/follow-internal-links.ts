import type { MouseEvent } from 'react';
import type { NavigateFunction } from 'react-router';

/** What the server answers itself (the API, its OpenAPI document, sign-in redirects): loaded as a document. */
const SERVER_PATHS = /^\/(v1|api|oidc)(\/|$)/;

/**
 * A click handler for a container of plain `<a href="/…">` links (compiled docs, prerendered
 * static content): same-site links navigate in the app like `<Link>` would, instead of
 * reloading the page. Modified clicks, new-tab targets, other sites and the server's own
 * paths behave as usual.
 */
export function followInternalLinks(navigate: NavigateFunction) {
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!href?.startsWith('/') || href.startsWith('//') || SERVER_PATHS.test(href) || anchor?.target || anchor?.hasAttribute('download'))
      return;
    event.preventDefault();
    navigate(href);
  };
}
