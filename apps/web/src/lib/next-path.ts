/** A dashboard page, with its query if it has one: the only places a sign-in returns to. */
const DASHBOARD_PAGE = /^\/dashboard(\/[a-z-]+)*(\?[\w=&.%-]*)?$/;

/**
 * The dashboard page named in a query's `?next=` (the page the guard sent the visitor away from,
 * or a plan chosen on the pricing page), else null. Anything else in `next` (another site,
 * `//host`, a public page) is ignored, so the link cannot send a signed-in user somewhere unexpected.
 */
export function nextPage(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return next !== null && DASHBOARD_PAGE.test(next) ? next : null;
}

/** Where a sign-in on /login goes: the `?next=` dashboard page, else /dashboard (spec). */
export function signInDestination(search: string): string {
  return nextPage(search) ?? '/dashboard';
}

/**
 * `path` carrying a dashboard page to go to once the visitor is through it (sign-in, sign-up,
 * onboarding), as `?next=`; without one that is a dashboard page, `path` alone.
 */
export function withNext(path: string, next: string | null | undefined): string {
  return next && DASHBOARD_PAGE.test(next) ? `${path}?next=${encodeURIComponent(next)}` : path;
}
