import { lazy, useState } from 'react';
import { Prerendered } from '~/components/ui/prerendered';
import { usePublicQuery } from '~/lib/public-query';
import { PLANS_PLACEHOLDER, plansQueryOptions } from '../api/plans';
import { type BillingPeriod, BillingToggle } from './billing-toggle';
import { PlanCard } from './plan-card';

const sections = () => import('./pricing-sections');
const PricingIntro = lazy(() => sections().then((module) => ({ default: module.PricingIntro })));
const PricingDetails = lazy(() => sections().then((module) => ({ default: module.PricingDetails })));

/**
 * The pricing page, fed by `GET /v1/observability/billing/plans` (prerendered with the same
 * shared constant). The period switch and the plan cards are interactive; the rest is static.
 */
export function PricingPage() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const { data } = usePublicQuery(plansQueryOptions());
  const pricing = data ?? PLANS_PLACEHOLDER;

  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <Prerendered content={PricingIntro} />
      <div className="mt-10 flex justify-center">
        <BillingToggle period={period} onChange={setPeriod} savingLabel={pricing.yearlySavingLabel} />
      </div>

      <ul className="mt-12 grid items-stretch gap-6 lg:grid-cols-3">
        {pricing.plans.map((plan) => (
          <li key={plan.id} className="flex">
            <PlanCard plan={plan} period={period} />
          </li>
        ))}
      </ul>

      <Prerendered content={PricingDetails} />
    </div>
  );
}
