import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/** Stamps many keys' last use in one statement (never moving a stamp backwards). */
export async function touchApiKeys(db: Database, uses: { keyId: string; at: Date }[]): Promise<void> {
  if (uses.length === 0) return;
  const values = sql.join(
    uses.map((use) => sql`(${use.keyId}, ${use.at.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await db.execute(sql`
    update api_keys set last_used_at = used.at
    from (values ${values}) as used(id, at)
    where api_keys.id = used.id and (api_keys.last_used_at is null or api_keys.last_used_at < used.at)
  `);
}
