import { PricingPage } from '~/features/marketing/components/pricing-page';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Pricing',
    'Simple, transparent pricing for Conductor: Free, Pro and Enterprise plans with monthly token quotas, per-minute rate limits and a 14-day free trial.',
    '/pricing',
  );

export default function Page() {
  return <PricingPage />;
}
