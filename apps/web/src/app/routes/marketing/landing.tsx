import { LANDING_META } from '@conductor/shared/constants/site-meta';
import { MarketingShell } from '~/components/layouts/marketing-shell';
import { SITE_NAME } from '~/config/site';
import { ComingSoonPage } from '~/features/marketing/components/coming-soon-page';
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
      {mode !== 'home' && (
        <div data-site-variant="waitlist">
          <ComingSoonPage />
        </div>
      )}
    </>
  );
}
