import { LANDING_META } from '@conductor/shared/constants/site-meta';
import { type ComponentType, lazy } from 'react';
import { KEEP_MARKUP } from '~/components/ui/keep-markup';
import { SITE_NAME } from '~/config/site';
import { pageMeta } from '~/lib/seo';
import { type SiteMode, useSiteMode } from '~/lib/site-mode';

/**
 * Prerendered with the home page's title; in SITE_MODE=waitlist the server rewrites the
 * served HTML to the coming-soon title (apps/server/src/modules/public-site/landing-meta.ts),
 * and the client, reading the same attribute, computes the same strings.
 */
export const meta = () => {
  const mode = typeof document !== 'undefined' && document.documentElement.dataset.siteMode === 'waitlist' ? 'waitlist' : 'home';
  const { title, description } = LANDING_META[mode];
  return pageMeta(SITE_NAME, description, '/').map((entry) => {
    if ('title' in entry) return { title };
    if ('property' in entry && entry.property === 'og:title') return { ...entry, content: title };
    return entry;
  });
};

const loadHome = () => import('~/features/marketing/components/home-landing');
const loadComingSoon = () => import('~/features/marketing/components/coming-soon-page');

/**
 * The page the server chose (SITE_MODE) loads before hydration (this module waits for it);
 * the other one never loads. The prerender (no document) writes both, with the code it loads
 * through `lazy`.
 */
const servedMode: SiteMode | null =
  typeof document === 'undefined' ? null : document.documentElement.dataset.siteMode === 'waitlist' ? 'waitlist' : 'home';
const homeModule = servedMode === 'home' ? await loadHome() : null;
const waitlistModule = servedMode === 'waitlist' ? await loadComingSoon() : null;
const PrerenderedHome = lazy(() => loadHome().then((module) => ({ default: module.HomeLanding })));
const PrerenderedComingSoon = lazy(() => loadComingSoon().then((module) => ({ default: module.ComingSoonPage })));

/** `/`: the home page or the coming-soon page, chosen by the server's SITE_MODE. */
export default function Landing() {
  const mode = useSiteMode();
  return (
    <>
      {mode !== 'waitlist' && <Variant name="home" page={homeModule?.HomeLanding} prerender={PrerenderedHome} />}
      {mode !== 'home' && <Variant name="waitlist" page={waitlistModule?.ComingSoonPage} prerender={PrerenderedComingSoon} />}
    </>
  );
}

function Variant({
  name,
  page: Page,
  prerender: Prerender,
}: {
  name: SiteMode;
  page: ComponentType | undefined;
  prerender: ComponentType;
}) {
  if (Page) {
    return (
      <div data-site-variant={name}>
        <Page />
      </div>
    );
  }
  if (typeof document === 'undefined') {
    return (
      <div data-site-variant={name}>
        <Prerender />
      </div>
    );
  }
  // Hydrating the other page: its prerendered markup (hidden by CSS) stays as it is, without its code,
  // until the mode is known right after hydration and this variant is removed.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string that keeps the prerendered children (KEEP_MARKUP).
  return <div data-site-variant={name} dangerouslySetInnerHTML={KEEP_MARKUP} suppressHydrationWarning />;
}
