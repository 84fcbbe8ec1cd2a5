import { cn } from '~/lib/cn';

export type BillingPeriod = 'monthly' | 'yearly';

/** Monthly/yearly switch; 'Save 17%' shows while yearly is selected. */
export function BillingToggle({
  period,
  onChange,
  savingLabel,
}: {
  period: BillingPeriod;
  onChange(period: BillingPeriod): void;
  savingLabel: string;
}) {
  return (
    <div className="flex flex-col items-center gap-3 sm:flex-row">
      <fieldset className="inline-flex rounded-lg border border-border bg-muted p-1">
        <legend className="sr-only">Billing period</legend>
        {(['monthly', 'yearly'] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={period === option}
            onClick={() => onChange(option)}
            className={cn(
              'rounded-md px-4 py-1.5 text-sm font-medium transition-colors',
              period === option ? 'bg-card text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {option === 'monthly' ? 'Monthly' : 'Yearly'}
          </button>
        ))}
      </fieldset>
      <p aria-live="polite" className="min-h-6 min-w-24 text-center text-sm">
        {period === 'yearly' && (
          <span className="inline-flex rounded-full bg-success-soft px-2.5 py-0.5 font-medium text-success">{savingLabel}</span>
        )}
      </p>
    </div>
  );
}
