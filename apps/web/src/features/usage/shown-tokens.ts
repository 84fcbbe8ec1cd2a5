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
