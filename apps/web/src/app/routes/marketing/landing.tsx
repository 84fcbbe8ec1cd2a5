import { LANDING_META } from '@conductor/shared/constants/site-meta';
import { lazy } from 'react';
import { MarketingShell } from '~/components/layouts/marketing-shell';
import { KEEP_MARKUP } from '~/components/ui/prerendered';
import { SITE_NAME } from '~/config/site';
import { HomePage } from '~/features/marketing/components/home-page';
import { pageMeta } from '~/lib/seo';
import { useSiteMode } from '~/lib/site-mode';

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

const loadComingSoon = () => import('~/features/marketing/components/coming-soon-page');

/**
 * In SITE_MODE=waitlist the coming-soon page is the page: its code loads before hydration
 * (this module waits for it). On the home page it is never loaded (see `WaitlistVariant`).
 */
const waitlistModule =
  typeof document !== 'undefined' && document.documentElement.dataset.siteMode === 'waitlist' ? await loadComingSoon() : null;

/** The prerender writes the coming-soon page with the code it loads here. */
const PrerenderedComingSoon = lazy(() => loadComingSoon().then((module) => ({ default: module.ComingSoonPage })));

/** `/`: the home page or the coming-soon page, chosen by the server's SITE_MODE. */
export default function Landing() {
  const mode = useSiteMode();
  return (
    <>
      {mode !== 'waitlist' && (
        <div data-site-variant="home">
          <MarketingShell>
            <HomePage />
          </MarketingShell>
        </div>
      )}
      {mode !== 'home' && <WaitlistVariant />}
    </>
  );
}

function WaitlistVariant() {
  if (waitlistModule) {
    return (
      <div data-site-variant="waitlist">
        <waitlistModule.ComingSoonPage />
      </div>
    );
  }
  if (typeof document === 'undefined') {
    return (
      <div data-site-variant="waitlist">
        <PrerenderedComingSoon />
      </div>
    );
  }
  // Hydrating the home page: the prerendered coming-soon markup (hidden by CSS) stays as it is, without its code,
  // until the mode is known right after hydration and this variant is removed.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string that keeps the prerendered children (KEEP_MARKUP).
  return <div data-site-variant="waitlist" dangerouslySetInnerHTML={KEEP_MARKUP} suppressHydrationWarning />;
}
