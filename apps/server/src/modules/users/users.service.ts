import { limitsForPlan, PROVIDER_IDS, type ProviderId, type PublicUser } from '@conductor/shared';
import type { Database } from '../../db/client.ts';
import { listProviderKeySummaries, type UserRow, usageTotals } from './users.repository.ts';

/** UTC calendar boundaries used for quotas ("this month") and "today". */
export function periodStarts(now: number): { monthStart: string; dayStart: string } {
  const date = new Date(now);
  const dayStart = date.toISOString().slice(0, 10);
  const monthStart = `${dayStart.slice(0, 7)}-01`;
  return { monthStart, dayStart };
}

/** The user as the portal sees it: profile, plan limits, live usage and provider-key summaries. */
export async function toPublicUser(db: Database, user: UserRow, now: number): Promise<PublicUser> {
  const { monthStart, dayStart } = periodStarts(now);
  const [totals, keys] = await Promise.all([usageTotals(db, user.id, monthStart, dayStart), listProviderKeySummaries(db, user.id)]);
  const limits = limitsForPlan(user.plan);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    plan: user.plan,
    createdAt: user.createdAt.toISOString(),
    verified: user.verified,
    authMethod: user.authMethod,
    hasPassword: user.passwordHash !== null,
    isDemo: user.isDemo,
    onboardingCompleted: user.onboardingCompleted,
    oidcProvider: user.oidcProvider,
    oidcClaims: user.oidcClaims ?? null,
    usage: {
      tokensUsed: totals.tokensThisMonth,
      tokensLimit: limits.tokensPerMonth,
      requestsToday: totals.requestsToday,
      requestsLimit: limits.requestsPerMinute,
    },
    apiKeys: keys
      .filter((key): key is { provider: ProviderId; masked: string; endpoint: string | null } =>
        (PROVIDER_IDS as readonly string[]).includes(key.provider),
      )
      .map((key) => ({ provider: key.provider, masked: key.masked, active: true, endpoint: key.endpoint })),
  };
}
