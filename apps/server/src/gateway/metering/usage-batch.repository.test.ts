import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { usageEvent } from '../../../test/usage-events.ts';
import { usageDaily, usageEvents } from '../../db/schema/index.ts';
import { recordUsageEvents, type UsageEventInput } from '../../modules/usage/usage.writer.ts';
import { deleteUsers } from '../../modules/users/users.repository.ts';
import { users } from '../../db/schema/index.ts';
import { writeUsageBatch } from './usage-batch.repository.ts';

const event = (userId: string, overrides: Partial<UsageEventInput>): UsageEventInput =>
  usageEvent(userId, { apiKeyId: 'key-1', ...overrides });

const batch = (userId: string): UsageEventInput[] => [
  event(userId, {}),
  event(userId, { statusCode: 429, errorType: 'rate_limit_error', promptTokens: 0, completionTokens: 0, costMicros: 0 }),
  event(userId, { streamed: true, createdAt: new Date('2025-03-01T23:59:59.999Z') }),
  event(userId, { environment: 'test', provider: 'sandbox', costMicros: 0, apiKeyId: null }),
  event(userId, { createdAt: new Date('2025-03-02T00:00:00Z'), model: 'o\'quote "model"' }),
  // Binary COPY writes 64-bit values as two halves: a cost past 2^32 and a time before 2000 (a negative offset).
  event(userId, { costMicros: 2 ** 40 + 12_345, createdAt: new Date('1999-12-31T23:59:59.123Z'), latencyMs: 2 ** 31 - 1 }),
  // Text COPY's CSV and the JSON form must carry as they are: separators, quotes, line breaks,
  // backslashes, the end-of-data marker, non-ASCII, and an empty string (not NULL).
  event(userId, { model: 'a,b;"c""d"\n\\.\r\ttab \\N é 😀', errorType: '', apiKeyId: '' }),
  // Whose provider key served it: the account's own (outside the quota) or the server's.
  event(userId, { keySource: 'byok', promptTokens: 100, completionTokens: 20 }),
  event(userId, { keySource: 'hosted', model: 'gpt-4o-mini' }),
];

describe('writeUsageBatch', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness?.close());

  it('writes exactly what recordUsageEvents writes (events and rollup), twice over for the upsert', async () => {
    const db = harness.app.context.database.db;
    const viaWriter = (await createUserWithSession(harness.app)).user.id;
    const viaBatch = (await createUserWithSession(harness.app)).user.id;
    for (let round = 0; round < 2; round += 1) {
      await recordUsageEvents(db, batch(viaWriter));
      await writeUsageBatch(db, batch(viaBatch));
    }
    const strip = <T extends { userId: string }>(rows: T[]) => rows.map(({ userId: _userId, ...rest }) => rest);
    const events = async (userId: string) =>
      strip(await db.select().from(usageEvents).where(eq(usageEvents.userId, userId)).orderBy(asc(usageEvents.requestId))).map(
        ({ requestId: _requestId, ...rest }) => rest,
      );
    const daily = async (userId: string) =>
      strip(
        await db
          .select()
          .from(usageDaily)
          .where(eq(usageDaily.userId, userId))
          .orderBy(asc(usageDaily.day), asc(usageDaily.environment), asc(usageDaily.model)),
      );
    expect(await events(viaBatch)).toEqual(await events(viaWriter));
    expect(await daily(viaBatch)).toEqual(await daily(viaWriter));
    expect((await daily(viaBatch)).reduce((sum, row) => sum + row.requests, 0)).toBe(2 * batch(viaBatch).length);
    // Own-key tokens are kept apart in the rollup: the one byok event's 120 tokens, twice.
    expect((await daily(viaBatch)).reduce((sum, row) => sum + row.ownKeyTokens, 0)).toBe(240);
    expect((await events(viaBatch)).map((row) => row.keySource).filter((source) => source !== null)).toEqual([
      'byok',
      'hosted',
      'byok',
      'hosted',
    ]);
  });

  it('replaces NUL in caller-chosen text instead of failing the batch', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    await writeUsageBatch(db, [event(userId, { model: 'bad\u0000model', errorType: 'x\u0000' })]);
    const [row] = await db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect(row?.model).toBe('bad\uFFFDmodel');
    expect(row?.errorType).toBe('x\uFFFD');
    const [daily] = await db.select().from(usageDaily).where(eq(usageDaily.userId, userId));
    expect(daily?.model).toBe('bad\uFFFDmodel');
  });

  it('clamps counts an upstream overstated into their columns instead of failing the batch', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    await writeUsageBatch(db, [
      event(userId, { promptTokens: 5_000_000_000, completionTokens: -3, latencyMs: 12.6, costMicros: 2 ** 60 }),
      event(userId, {}),
      event(userId, { promptTokens: Number.NaN, completionTokens: Number.POSITIVE_INFINITY, costMicros: 0.4 }),
    ]);
    const rows = await db.select().from(usageEvents).where(eq(usageEvents.userId, userId)).orderBy(asc(usageEvents.requestId));
    expect(rows.map((row) => [row.promptTokens, row.completionTokens, row.latencyMs, row.costMicros])).toEqual([
      [2_147_483_647, 0, 13, Number.MAX_SAFE_INTEGER],
      [10, 5, 120, 75],
      [0, 2_147_483_647, 120, 0],
    ]);
    const [daily] = await db.select().from(usageDaily).where(eq(usageDaily.userId, userId));
    expect(daily?.promptTokens).toBe(2_147_483_647 + 10);
  });

  it('refuses a batch sent again (its acknowledgement lost) whole, with unique_violation, counting nothing twice', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    const sent = batch(userId);
    await writeUsageBatch(db, sent);
    const stored = async () => ({
      events: await db.select().from(usageEvents).where(eq(usageEvents.userId, userId)).orderBy(asc(usageEvents.requestId)),
      daily: await db.select().from(usageDaily).where(eq(usageDaily.userId, userId)).orderBy(asc(usageDaily.day), asc(usageDaily.model)),
    });
    const before = await stored();
    expect(before.events).toHaveLength(sent.length);
    // The same batch again, and with one new event: PGlite's binary COPY and PostgreSQL's insert
    // both fail on the request id (SQLSTATE 23505, as the meter reads it), and the new event and
    // the rollup roll back with them.
    for (const again of [sent, [...sent.slice(0, 2), event(userId, {})]]) {
      const error = await writeUsageBatch(db, again).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      const failure = error as { code?: string; cause?: { code?: string } } | undefined;
      expect(failure?.code ?? failure?.cause?.code).toBe('23505');
    }
    expect(await stored()).toEqual(before);
  });

  it('keeps no events of a deleted account: deleteUsers removes them, and a later batch for it rolls back whole', async () => {
    const db = harness.app.context.database.db;
    const kept = (await createUserWithSession(harness.app)).user.id;
    const removed = (await createUserWithSession(harness.app)).user.id;
    await writeUsageBatch(db, [...batch(kept), ...batch(removed)]);
    expect(await deleteUsers(db, eq(users.id, removed))).toBe(1);
    const count = async (userId: string) => (await db.select().from(usageEvents).where(eq(usageEvents.userId, userId))).length;
    expect(await count(removed)).toBe(0);
    expect(await db.select().from(usageDaily).where(eq(usageDaily.userId, removed))).toEqual([]);
    expect(await count(kept)).toBe(batch(kept).length);
    // usage_events has no foreign key; the rollup's, checked in the same transaction, refuses the batch.
    await expect(writeUsageBatch(db, batch(removed))).rejects.toThrow();
    expect(await count(removed)).toBe(0);
  });
});
