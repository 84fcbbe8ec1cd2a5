import { monthlyDisplayPrice, type Plan } from '@conductor/shared';
import { Check, Minus } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { planChangePath } from '~/features/billing/lib/plan-request';
import { cn } from '~/lib/cn';
import type { BillingPeriod } from './billing-toggle';

const usd = (amount: number) => `$${amount.toLocaleString('en-US')}`;

/**
 * Where a plan's button goes: Enterprise to /contact (sales); a paid plan to /register, which
 * carries the plan and period on to Billing's plan change (through onboarding, and through
 * /login for an existing account, or at once when signed in); Free to /register.
 */
function planTarget(plan: Plan, period: BillingPeriod): string {
  if (plan.id === 'enterprise') return '/contact';
  if (plan.price.monthly === 0) return '/register';
  // As `withNext` writes it, without loading the sign-in code on this page.
  return `/register?next=${encodeURIComponent(planChangePath(plan.id, period))}`;
}

/** One plan: price for the period, limits and features, and its button (see `planTarget`). */
export function PlanCard({ plan, period }: { plan: Plan; period: BillingPeriod }) {
  const price = monthlyDisplayPrice(plan, period);
  const target = planTarget(plan, period);
  const titleId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={titleId}
      data-plan={plan.id}
      className={cn(
        'relative flex w-full flex-col rounded-2xl border bg-card p-6 shadow-sm sm:p-8',
        plan.popular ? 'border-primary shadow-lg ring-1 ring-primary' : 'border-border',
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">
          Most Popular
        </p>
      )}
      <h2 id={titleId} className="text-lg font-semibold">
        {plan.name}
      </h2>
      <p className="mt-2 min-h-12 text-sm text-muted-foreground">{plan.description}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-semibold tracking-tight" data-testid="plan-price">
          {usd(price)}
        </span>
        <span className="text-sm text-muted-foreground">/mo</span>
      </p>
      <p className="mt-1 min-h-5 text-sm text-muted-foreground">
        {plan.price.monthly === 0 ? 'Free forever' : period === 'yearly' ? `Billed ${usd(plan.price.yearly)} yearly` : 'Billed monthly'}
      </p>
      <Link
        to={target}
        className={buttonClasses(plan.popular ? 'primary' : 'secondary', 'md', 'mt-6 w-full')}
        aria-label={`${plan.cta}: ${plan.name} plan`}
      >
        {plan.cta}
      </Link>
      <p className="mt-3 text-center text-xs text-muted-foreground">{plan.trialDays}-day free trial</p>
      <ul className="mt-6 space-y-3 border-t border-border pt-6 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
            {feature}
          </li>
        ))}
        {plan.limitations?.map((limitation) => (
          <li key={limitation} className="flex gap-2 text-muted-foreground">
            <Minus className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <span className="sr-only">Limitation: </span>
              {limitation}
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}
