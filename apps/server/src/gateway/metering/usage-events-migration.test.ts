import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { usageEvent } from '../../../test/usage-events.ts';
import { usageDaily, usageEvents } from '../../db/schema/index.ts';
import { writeUsageBatch } from './usage-batch.repository.ts';

/**
 * Migration 0011 removes the events a re-sent batch wrote twice, and their excess in the rollup,
 * then makes request ids unique; 0012 makes the request id the key in place of the serial id.
 */
describe('migrations 0011 and 0012: one event per request id', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness?.close());

  it('keeps one copy of each event, takes the others out of usage_daily, and keys events by request id', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    // As before the migrations: a serial key, no unique index on the request id, and batches written
    // twice (their commit unacknowledged).
    await db.execute(sql`alter table usage_events drop constraint usage_events_pkey`);
    await db.execute(sql`alter table usage_events add column id bigserial primary key`);
    const once = [usageEvent(userId, { model: 'gpt-4o-mini' }), usageEvent(userId, { environment: 'test', provider: 'sandbox' })];
    const twice = [
      usageEvent(userId, { promptTokens: 7, keySource: 'byok' }),
      usageEvent(userId, { statusCode: 429, errorType: 'rate_limit_error', createdAt: new Date('2025-03-01T23:59:59.999Z') }),
      usageEvent(userId, { createdAt: new Date('2025-03-02T00:00:00.000Z'), latencyMs: 9 }),
    ];
    const thrice = [usageEvent(userId, { costMicros: 1_000 })];
    await writeUsageBatch(db, [...once, ...twice, ...thrice]);
    await writeUsageBatch(db, [...twice, ...thrice]);
    await writeUsageBatch(db, thrice);
    const stored = async () => (await db.select().from(usageEvents).where(eq(usageEvents.userId, userId))).length;
    expect(await stored()).toBe(2 + 2 * 3 + 3);

    for (const name of ['0011_usage_events_unique_request', '0012_usage_events_request_key']) {
      const migration = readFileSync(new URL(`../../db/migrations/${name}.sql`, import.meta.url), 'utf8');
      for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
    }
    // The copy kept is the first written (the lowest serial id), and the serial id is gone.
    const columns = await db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'usage_events' and column_name = 'id'`,
    );
    expect(columns.rows).toEqual([]);
    const events = await db.select().from(usageEvents).where(eq(usageEvents.userId, userId)).orderBy(asc(usageEvents.requestId));
    expect(events.map((row) => row.requestId)).toEqual([...once, ...twice, ...thrice].map((item) => item.requestId));
    // The rollup equals what a single write of each event gives.
    const daily = async (owner: string) =>
      (
        await db
          .select()
          .from(usageDaily)
          .where(eq(usageDaily.userId, owner))
          .orderBy(asc(usageDaily.day), asc(usageDaily.environment), asc(usageDaily.model))
      ).map(({ userId: _userId, ...rest }) => rest);
    const reference = (await createUserWithSession(harness.app)).user.id;
    await writeUsageBatch(
      db,
      [...once, ...twice, ...thrice].map((item) => ({ ...item, requestId: `${item.requestId}-ref`, userId: reference })),
    );
    expect(await daily(userId)).toEqual(await daily(reference));
    // And the request id is the key: the same event cannot be written again.
    await expect(writeUsageBatch(db, thrice)).rejects.toThrow();
    expect(await stored()).toBe(6);
  });
});
