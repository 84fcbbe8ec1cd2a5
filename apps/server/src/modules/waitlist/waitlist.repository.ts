import { count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { waitlistEntries } from '../../db/schema/index.ts';

export interface NewWaitlistEntry {
  /** Already normalised (see `normaliseWaitlistEmail`). */
  email: string;
  source: string;
  createdAt: Date;
}

/**
 * Inserts unless the address is already on that list. The unique index decides, so concurrent
 * identical submissions yield exactly one row whatever the timing.
 */
export async function insertIfAbsent(db: Database, entry: NewWaitlistEntry): Promise<boolean> {
  const inserted = await db
    .insert(waitlistEntries)
    .values(entry)
    .onConflictDoNothing({ target: [waitlistEntries.email, waitlistEntries.source] })
    .returning({ id: waitlistEntries.id });
  return inserted.length === 1;
}

export async function countEntries(db: Database, email?: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(waitlistEntries)
    .where(email ? eq(waitlistEntries.email, email) : undefined);
  return row?.total ?? 0;
}
