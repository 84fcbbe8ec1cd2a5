import { and, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { providerKeys, usageDaily, usageEvents, users } from '../../db/schema/index.ts';
import { QUOTA_TOKENS } from '../usage/usage.repository.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
  return row;
}

export async function insertUser(db: Database, user: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateUser(db: Database, id: string, patch: Partial<NewUserRow>): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Live (quota-bearing) tokens since `monthStart` and requests since `dayStart`, from the daily rollup. */
export async function usageTotals(
  db: Database,
  userId: string,
  monthStart: string,
  dayStart: string,
): Promise<{ tokensThisMonth: number; requestsToday: number }> {
  const [row] = await db
    .select({
      tokensThisMonth: sql<string>`coalesce(sum(case when ${usageDaily.environment} = 'live' then ${QUOTA_TOKENS} else 0 end), 0)`,
      requestsToday: sql<string>`coalesce(sum(case when ${usageDaily.day} >= ${dayStart} then ${usageDaily.requests} else 0 end), 0)`,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, monthStart)));
  return { tokensThisMonth: Number(row?.tokensThisMonth ?? 0), requestsToday: Number(row?.requestsToday ?? 0) };
}

export async function listProviderKeySummaries(db: Database, userId: string) {
  return db
    .select({ provider: providerKeys.provider, masked: providerKeys.masked, endpoint: providerKeys.baseUrl })
    .from(providerKeys)
    .where(eq(providerKeys.userId, userId))
    .orderBy(providerKeys.provider);
}

/**
 * Deletes the accounts `where` selects: the rows that reference an account cascade with it, and
 * its usage events (which carry no foreign key, schema/index.ts) go after it in the same
 * transaction. The account goes first: a metering batch still writing for it holds its row
 * (through `usage_daily`'s key) until it commits, so its events are there to be deleted, and a
 * later batch fails on that key and rolls back.
 */
export async function deleteUsers(db: Database, where: SQL): Promise<number> {
  return db.transaction(async (tx) => {
    const removed = await tx.delete(users).where(where).returning({ id: users.id });
    if (removed.length > 0)
      await tx.delete(usageEvents).where(
        inArray(
          usageEvents.userId,
          removed.map((row) => row.id),
        ),
      );
    return removed.length;
  });
}
