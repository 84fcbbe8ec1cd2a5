import { MarketingShell } from '~/components/layouts/marketing-shell';
import { HomePage } from './home-page';

/** `/` when SITE_MODE=home: the home page in the public site's header and footer. */
export function HomeLanding() {
  return (
    <MarketingShell>
      <HomePage />
    </MarketingShell>
  );
}
