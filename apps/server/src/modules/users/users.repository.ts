import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { providerKeys, usageDaily, users } from '../../db/schema/index.ts';

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
      tokensThisMonth: sql<string>`coalesce(sum(case when ${usageDaily.environment} = 'live' then ${usageDaily.promptTokens} + ${usageDaily.completionTokens} else 0 end), 0)`,
      requestsToday: sql<string>`coalesce(sum(case when ${usageDaily.day} >= ${dayStart} then ${usageDaily.requests} else 0 end), 0)`,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, monthStart)));
  return { tokensThisMonth: Number(row?.tokensThisMonth ?? 0), requestsToday: Number(row?.requestsToday ?? 0) };
}

export async function listProviderKeySummaries(db: Database, userId: string) {
  return db
    .select({ provider: providerKeys.provider, masked: providerKeys.masked })
    .from(providerKeys)
    .where(eq(providerKeys.userId, userId))
    .orderBy(providerKeys.provider);
}
