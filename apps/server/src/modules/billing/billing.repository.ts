import { and, desc, eq } from 'drizzle-orm';
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
