import { DEFAULT_TOKEN_LIMIT, USAGE_BAR } from '@conductor/shared';
import { cn } from '~/lib/cn';
import { formatCount, formatNumber } from '~/lib/format';
import { shownTokens } from '../shown-tokens';

export type UsageTone = 'success' | 'warning' | 'danger';

/** The spec's bar colours: green up to 70%, yellow above 70%, red above 90%. */
export function usageTone(percent: number): UsageTone {
  if (percent > USAGE_BAR.dangerAbovePercent) return 'danger';
  if (percent > USAGE_BAR.warnAbovePercent) return 'warning';
  return 'success';
}

const FILL: Record<UsageTone, string> = { success: 'bg-success', warning: 'bg-warning', danger: 'bg-danger' };

/** Tokens used against the monthly limit (1,000,000 when the plan has none); the width is capped at 100%. */
export function UsageBar({
  used: quotaTokens,
  ownKeyTokens = 0,
  testTokens = 0,
  limit,
  label = 'Token usage this month',
}: {
  /** Tokens that count against the quota. */
  used: number;
  /** Tokens served on the account's own provider keys: outside the quota, counted in the bar only when there is none. */
  ownKeyTokens?: number;
  /** Tokens on test keys: never counted, named under the bar. */
  testTokens?: number;
  limit: number | null;
  label?: string;
}) {
  const used = shownTokens({ tokensUsed: quotaTokens, ownKeyTokens, tokensLimit: limit });
  const effectiveLimit = limit ?? DEFAULT_TOKEN_LIMIT;
  const percent = effectiveLimit > 0 ? (used / effectiveLimit) * 100 : 0;
  const tone = usageTone(percent);
  const width = Math.min(100, Math.max(0, percent));
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums text-muted-foreground">
          {formatNumber(used)} / {formatNumber(effectiveLimit)} tokens ({percent.toFixed(1)}%)
        </span>
      </div>
      <div
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(width)}
        data-tone={tone}
      >
        <div className={cn('h-full rounded-full transition-[width] duration-200', FILL[tone])} style={{ width: `${width}%` }} />
      </div>
      {limit === null && <p className="text-xs text-muted-foreground">Your plan has no token quota; shown against 1,000,000 tokens.</p>}
      {limit !== null && ownKeyTokens > 0 && (
        <p className="text-xs text-muted-foreground">
          Plus {formatNumber(ownKeyTokens)} tokens on your own provider keys, outside the quota: your providers bill you for them.
        </p>
      )}
      {testTokens > 0 && (
        <p className="text-xs text-muted-foreground">
          {formatCount(testTokens, 'token')} on test keys this month, not counted: test requests are free and never touch the quota.
        </p>
      )}
    </div>
  );
}
