/**
 * How the browser build groups modules into chunks. Left to itself the bundler makes one
 * chunk per set of routes sharing a module, which gave public pages 30 to 40 scripts of a
 * few hundred bytes each: every one a request on a slow connection and a few hundred bytes
 * more than the same code compressed together. Groups, highest priority first:
 *
 * - `framework`: React, React DOM and React Router, on every page;
 * - `app`: what the root and every layout use (auth state, API client, toasts, buttons,
 *   the logo, the icon runtime);
 * - `site`: the public site's header and footer, not on the sign-in pages or the coming-soon
 *   page; `theme`: the theme switch (site, coming-soon page, dashboard); `auth`: the form
 *   parts the sign-in pages share; `tabs`; `form`; `card`;
 * - `docs`: what every docs page loads (each section's components and content, the search
 *   and its index stay chunks of their own, loaded when used).
 *
 * Route code stays split by route; the dashboard's libraries (charts, menus, dialogs,
 * TanStack Query) stay out of the public pages. The e2e budget test (e2e/routes.spec.ts)
 * checks what each public page loads.
 */
interface ChunkGroup {
  name: string | ((id: string) => string | null);
  test: (id: string) => boolean;
  priority: number;
}

const normalise = (id: string) => id.replaceAll('\\', '/');

const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router)\//;

const APP = [
  /\/apps\/web\/src\/lib\/(auth|api-client|toast|cn|seo|site-mode)\.tsx?$/,
  /\/apps\/web\/src\/components\/ui\/(button|logo|toaster)\.tsx$/,
  /\/apps\/web\/src\/components\/ui\/keep-markup\.ts$/,
  /\/apps\/web\/src\/config\/site\.ts$/,
  /\/packages\/shared\/src\/constants\/limits\.ts$/,
  /\/apps\/web\/src\/components\/ui\/lucide-runtime\.ts$/,
];

/** What the sign-in pages share (all of it used by /login). */
const AUTH = [
  /\/apps\/web\/src\/components\/ui\/(input|field|label)\.tsx$/,
  /\/apps\/web\/src\/components\/layouts\/auth-card\.tsx$/,
  /\/apps\/web\/src\/features\/auth\/(components\/(password-input|checkbox-field|email-field)|hooks\/use-redirect-if-signed-in)\.tsx?$/,
];

/** The card serves the sign-in pages and the support pages' live parts (system status): a chunk of its own. */
const CARD = /\/apps\/web\/src\/components\/ui\/card\.tsx$/;

/** The form hook serves the sign-in pages, /contact and the support centre's ticket form: a chunk of its own. */
const FORM = /\/apps\/web\/src\/lib\/use-schema-form\.ts$/;

/**
 * What every docs page loads: the layout's parts, the section wrapper and the behaviour of
 * its markup. A section's components and content, the search and the API reference load
 * when used (a prerendered section keeps its HTML: see `DocsArticle`).
 */
const DOCS =
  /\/apps\/web\/src\/(features\/docs\/(components\/(docs-article|docs-search-box)|docs-registry|docs-nav|docs-enhance)|config\/docs)\.tsx?$/;

/**
 * The icons the docs' components use that other pages use too: in the `docs` group they would
 * make those pages load it, so each stays a chunk of its own (as the bundler would make it).
 */
const DOCS_SHARED_ICON = /\/node_modules\/lucide-react\/dist\/esm\/icons\/(check|copy|search|chevron-left|chevron-right)\.mjs$/;
const iconChunkName = (id: string) => `icon-${DOCS_SHARED_ICON.exec(normalise(id))?.[1]}`;

const TABS = /\/apps\/web\/src\/components\/ui\/tabs\.tsx$/;

const SITE = /\/apps\/web\/src\/components\/layouts\/(marketing-shell|site-header|site-footer|subscribe-form)\.tsx$/;

/** The theme switch serves the public site, the coming-soon page and the dashboard: a chunk of its own. */
const THEME = /\/(apps\/web\/src\/components\/ui\/theme-toggle\.tsx|node_modules\/lucide-react\/dist\/esm\/icons\/(sun|moon)\.mjs)$/;

export const CHUNK_GROUPS: ChunkGroup[] = [
  { name: 'framework', priority: 30, test: (id) => FRAMEWORK.test(normalise(id)) },
  { name: 'app', priority: 20, test: (id) => APP.some((pattern) => pattern.test(normalise(id))) },
  { name: 'site', priority: 10, test: (id) => SITE.test(normalise(id)) },
  { name: 'auth', priority: 10, test: (id) => AUTH.some((pattern) => pattern.test(normalise(id))) },
  // Tabs serve the sign-up page (and any page that needs them): a chunk of their own, not part of the `auth` group.
  { name: 'tabs', priority: 10, test: (id) => TABS.test(normalise(id)) },
  { name: 'form', priority: 10, test: (id) => FORM.test(normalise(id)) },
  // Above `auth`, whose auth-card would otherwise take the card along (a group takes in what its modules import).
  { name: 'card', priority: 12, test: (id) => CARD.test(normalise(id)) },
  { name: 'theme', priority: 15, test: (id) => THEME.test(normalise(id)) },
  { name: iconChunkName, priority: 6, test: (id) => DOCS_SHARED_ICON.test(normalise(id)) },
  { name: 'docs', priority: 5, test: (id) => DOCS.test(normalise(id)) },
];
