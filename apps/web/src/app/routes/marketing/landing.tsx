import { ComingSoonPage } from '~/features/marketing/components/coming-soon-page';
import { HomePage } from '~/features/marketing/components/home-page';
import { pageMeta } from '~/lib/seo';
import { useSiteMode } from '~/lib/site-mode';
import { MarketingShell } from '~/components/layouts/marketing-shell';

export const meta = () =>
  pageMeta(
    'Conductor',
    'Conductor is an OpenAI-compatible LLM gateway: failover, load balancing and cost-optimised routing across OpenAI, Anthropic, Google, Azure, Mistral and Cohere.',
    '/',
  );

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
