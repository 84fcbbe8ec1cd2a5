import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Runs `work` in a transaction holding an advisory lock on one account's `topic` (billing,
 * API keys): changes of that kind to one account take turns, on every instance sharing the
 * database, and a check followed by a write inside `work` cannot be raced.
 */
export function withAccountLock<T>(db: Database, topic: string, userId: string, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${topic}:${userId}`}))`);
    return work(tx as unknown as Database);
  });
}
