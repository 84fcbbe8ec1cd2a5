import { and, gte, lt, sql } from 'drizzle-orm';
import type { ComponentStatus } from '@conductor/shared';
import type { Database } from '../../db/client.ts';
import { healthChecks } from '../../db/schema/index.ts';
import type { ComponentCheck } from './status.checks.ts';

export async function recordChecks(db: Database, checks: readonly ComponentCheck[], checkedAt: Date): Promise<void> {
  if (checks.length === 0) return;
  await db.insert(healthChecks).values(checks.map((check) => ({ ...check, checkedAt })));
}

export interface DailyCount {
  component: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  status: ComponentStatus;
  checks: number;
}

/** Check counts per component, UTC day and status in [from, to). */
export async function dailyCounts(db: Database, from: Date, to: Date): Promise<DailyCount[]> {
  const day = sql<string>`to_char(${healthChecks.checkedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ component: healthChecks.component, day, status: healthChecks.status, checks: sql<number>`count(*)::int` })
    .from(healthChecks)
    .where(and(gte(healthChecks.checkedAt, from), lt(healthChecks.checkedAt, to)))
    .groupBy(healthChecks.component, day, healthChecks.status);
  return rows.map((row) => ({ ...row, checks: Number(row.checks) }));
}

/** Drops results older than the history window. */
export async function pruneChecks(db: Database, before: Date): Promise<void> {
  await db.delete(healthChecks).where(lt(healthChecks.checkedAt, before));
}
