import { and, desc, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { invoices, subscriptions, users } from '../../db/schema/index.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;
type UserPlan = (typeof users.$inferSelect)['plan'];

export async function findSubscription(db: Database, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return row;
}

export async function saveSubscription(db: Database, row: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
  const { userId, ...rest } = row;
  const [saved] = await db
    .insert(subscriptions)
    .values(row)
    .onConflictDoUpdate({ target: subscriptions.userId, set: { ...rest, updatedAt: rest.updatedAt ?? new Date() } })
    .returning();
  if (!saved) throw new Error('upsert returned no row');
  return saved;
}

/** Changes only the given columns of an account's subscription (others, such as the trial's marks, stay as stored). */
export async function updateSubscription(
  db: Database,
  userId: string,
  set: Partial<Omit<typeof subscriptions.$inferInsert, 'userId'>>,
): Promise<void> {
  await db.update(subscriptions).set(set).where(eq(subscriptions.userId, userId));
}

/**
 * The account's plan, read under a row lock for the rest of the transaction: a plan change
 * decides from the stored plan, not from the one its request's session loaded earlier (two
 * changes sent at once would otherwise both start from the old plan and both be billed).
 */
export async function lockUserPlan(db: Database, userId: string): Promise<UserPlan | undefined> {
  const [row] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).for('update');
  return row?.plan;
}

/** Tokens of a calendar month (`YYYY-MM`) already billed as overage on the account's invoices. */
export async function overageTokensBilled(db: Database, userId: string, month: string): Promise<number> {
  const [row] = await db
    .execute<{ tokens: string | number | null }>(sql`
    select coalesce(sum((line->'overage'->>'tokens')::bigint), 0) as tokens
    from ${invoices}, jsonb_array_elements(${invoices.lines}) as line
    where ${invoices.userId} = ${userId} and line->'overage'->>'month' = ${month}`)
    .then((result) => result.rows);
  return Number(row?.tokens ?? 0);
}

/** Accounts whose subscription period has ended by `now` (renewal or cancellation due), oldest first. */
/** Where a walk through the due subscriptions stands: the last one it was given. */
export interface DueCursor {
  periodEnd: Date;
  userId: string;
}

/** Subscriptions whose period is over, oldest first (then by account), after `after` when given. */
export async function subscriptionsDue(
  db: Database,
  now: number,
  limit: number,
  after?: DueCursor,
): Promise<{ userId: string; plan: UserPlan; periodEnd: Date }[]> {
  const due = lte(subscriptions.currentPeriodEnd, new Date(now));
  return db
    .select({ userId: subscriptions.userId, plan: users.plan, periodEnd: subscriptions.currentPeriodEnd })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(
      after
        ? and(
            due,
            or(
              gt(subscriptions.currentPeriodEnd, after.periodEnd),
              and(eq(subscriptions.currentPeriodEnd, after.periodEnd), gt(subscriptions.userId, after.userId)),
            ),
          )
        : due,
    )
    .orderBy(subscriptions.currentPeriodEnd, subscriptions.userId)
    .limit(limit);
}

export async function setUserPlan(db: Database, userId: string, plan: UserPlan, now: number): Promise<void> {
  await db
    .update(users)
    .set({ plan, updatedAt: new Date(now) })
    .where(eq(users.id, userId));
}

export async function insertInvoice(db: Database, row: NewInvoiceRow): Promise<InvoiceRow> {
  const [inserted] = await db.insert(invoices).values(row).returning();
  if (!inserted) throw new Error('insert returned no row');
  return inserted;
}

export async function listInvoicesOfUser(db: Database, userId: string): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt), desc(invoices.number));
}

export async function findInvoiceOfUser(db: Database, userId: string, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.userId, userId)))
    .limit(1);
  return row;
}
