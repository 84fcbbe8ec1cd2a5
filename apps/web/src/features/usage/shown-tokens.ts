import type { UsageCurrent } from '@conductor/shared/schemas/usage';
import { formatNumber } from '~/lib/format';

/** The month's token figures, as the usage endpoints return them. */
export interface MonthTokens {
  /** Tokens that count against the quota (Conductor's keys). */
  tokensUsed: number;
  /** Tokens served on the account's own provider keys: outside the quota. */
  ownKeyTokens: number;
  /** The plan's monthly quota; null when it has none. */
  tokensLimit: number | null;
}

/**
 * The "tokens used" figure every usage view shows: against a quota, the tokens it counts;
 * without one, every token (own keys included), since nothing separates them.
 */
export function shownTokens({ tokensUsed, ownKeyTokens, tokensLimit }: MonthTokens): number {
  return tokensLimit === null ? tokensUsed + ownKeyTokens : tokensUsed;
}

/**
 * Under the month's tokens: the quota they count against, what ran on the account's own keys
 * (outside it), and what ran on test keys (never counted), so a chart of test requests beside
 * "0" reads right.
 */
export function tokensHint(usage: UsageCurrent): string {
  let hint = usage.tokensLimit === null ? 'No monthly quota on your plan' : `of ${formatNumber(usage.tokensLimit)} this month`;
  if (usage.tokensLimit !== null && usage.ownKeyTokens > 0) hint += `, plus ${formatNumber(usage.ownKeyTokens)} on your own keys`;
  if (usage.testTokens > 0) hint += `; ${formatNumber(usage.testTokens)} on test keys, not counted`;
  return hint;
}
