/** A dashboard page, with its query if it has one: the only places a sign-in returns to. */
const DASHBOARD_PAGE = /^\/dashboard(\/[a-z-]+)*(\?[\w=&.%-]*)?$/;

/**
 * Where a sign-in on /login goes: the dashboard page the visitor was sent away from (the
 * guard's `?next=`), else /dashboard (spec). Anything else in `next` (another site, `//host`,
 * a public page) is ignored, so the link cannot send a signed-in user somewhere unexpected.
 */
export function signInDestination(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next !== null && DASHBOARD_PAGE.test(next) ? next : '/dashboard';
}
