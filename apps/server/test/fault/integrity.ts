/**
 * Database checks after a crash: every table reads end to end, indexes agree with their
 * tables, unique rules still hold, and the usage rollup equals the sum of the usage events.
 * They run on the database the server left behind (PGlite reopened from DATA_DIR, or the
 * test's PostgreSQL database), through the same client code the server uses.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';

export async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Row counts of every table of the schema (a full read of each: a damaged page would fail it). */
export async function tableCounts(db: Database): Promise<Record<string, number>> {
  const tables = await rows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await rows<{ count: number }>(db, sql`select count(*)::int as count from ${sql.identifier(table)}`);
    counts[table] = row?.count ?? -1;
  }
  return counts;
}

/**
 * The same count read through the table (sequential scan) and through an index (bitmap or
 * index scan): an index left behind by a torn write would disagree with its table.
 */
export async function indexMismatches(db: Database): Promise<string[]> {
  const checks: [table: string, indexedColumn: string][] = [
    ['users', 'lower(email)'],
    ['sessions', 'token_hash'],
    ['api_keys', 'key_hash'],
    ['usage_events', 'request_id'],
    ['usage_daily', 'user_id'],
    ['support_tickets', 'id'],
    ['waitlist_entries', 'email'],
  ];
  const problems: string[] = [];
  await db.transaction(async (tx) => {
    for (const [table, column] of checks) {
      await tx.execute(sql`set local enable_indexscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      await tx.execute(sql`set local enable_seqscan = on`);
      const [sequential] = await rows<{ count: number }>(
        tx as unknown as Database,
        sql`select count(*)::int as count from ${sql.identifier(table)}`,
      );
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = on`);
      await tx.execute(sql`set local enable_bitmapscan = on`);
      const [indexed] = await rows<{ count: number }>(
        tx as unknown as Database,
        sql`select count(*)::int as count from ${sql.identifier(table)} where ${sql.raw(column)} is not null`,
      );
      if (sequential?.count !== indexed?.count)
        problems.push(`${table}: ${sequential?.count} rows read, ${indexed?.count} through the index`);
    }
  });
  return problems;
}

/** Unique rules re-checked by a query (a corrupt unique index could have let duplicates in). */
export async function duplicateViolations(db: Database): Promise<string[]> {
  const checks: [string, SQL][] = [
    ['users.lower(email)', sql`select count(*)::int as count from (select lower(email) from users group by 1 having count(*) > 1) d`],
    ['api_keys.key_hash', sql`select count(*)::int as count from (select key_hash from api_keys group by 1 having count(*) > 1) d`],
    [
      'waitlist_entries.email',
      sql`select count(*)::int as count from (select email from waitlist_entries group by 1 having count(*) > 1) d`,
    ],
    [
      'usage_events.request_id',
      sql`select count(*)::int as count from (select request_id from usage_events group by 1 having count(*) > 1) d`,
    ],
    [
      'support_tickets.number',
      sql`select count(*)::int as count from (select number from support_tickets group by 1 having count(*) > 1) d`,
    ],
  ];
  const problems: string[] = [];
  for (const [name, query] of checks) {
    const [row] = await rows<{ count: number }>(db, query);
    if ((row?.count ?? 0) > 0) problems.push(`${name}: ${row?.count} duplicated values`);
  }
  return problems;
}

/**
 * Rollup rows that differ from the sum of their events (per account, UTC day, environment,
 * provider and model), in either direction: a batch is written as one transaction, so after
 * any crash the two must agree exactly.
 */
export async function rollupMismatches(db: Database): Promise<string[]> {
  const mismatches = await rows<Record<string, unknown>>(
    db,
    sql`
      with events as (
        select user_id, (created_at at time zone 'UTC')::date as day, environment, provider, model,
          count(*)::int as requests,
          count(*) filter (where status_code >= 400)::int as errors,
          sum(prompt_tokens)::bigint as prompt_tokens,
          sum(completion_tokens)::bigint as completion_tokens,
          sum(cost_micros)::bigint as cost_micros,
          coalesce(sum(prompt_tokens + completion_tokens) filter (where key_source = 'byok'), 0)::bigint as own_key_tokens
        from usage_events group by 1, 2, 3, 4, 5
      )
      select coalesce(e.user_id, d.user_id) as user_id, coalesce(e.day, d.day)::text as day, coalesce(e.model, d.model) as model,
        e.requests as event_requests, d.requests as rollup_requests,
        e.prompt_tokens::text as event_prompt, d.prompt_tokens::text as rollup_prompt,
        e.completion_tokens::text as event_completion, d.completion_tokens::text as rollup_completion,
        e.own_key_tokens::text as event_own_key, d.own_key_tokens::text as rollup_own_key
      from events e
      full outer join usage_daily d
        on d.user_id = e.user_id and d.day = e.day and d.environment = e.environment and d.provider = e.provider and d.model = e.model
      where e.requests is distinct from d.requests
        or e.errors is distinct from d.errors
        or e.prompt_tokens is distinct from d.prompt_tokens
        or e.completion_tokens is distinct from d.completion_tokens
        or e.cost_micros is distinct from d.cost_micros
        or e.own_key_tokens is distinct from d.own_key_tokens
    `,
  );
  return mismatches.map((row) => JSON.stringify(row));
}

export async function presentIds(
  db: Database,
  table: 'users' | 'api_keys' | 'support_tickets',
  column: 'email' | 'id',
): Promise<Set<string>> {
  const found = await rows<{ value: string }>(db, sql`select ${sql.identifier(column)} as value from ${sql.identifier(table)}`);
  return new Set(found.map((row) => row.value));
}
