import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { usageDaily, usageEvents } from '../../db/schema/index.ts';
import { recordUsageEvents, type UsageEventInput } from '../../modules/usage/usage.writer.ts';
import { writeUsageBatch } from './usage-batch.repository.ts';

const event = (userId: string, overrides: Partial<UsageEventInput>): UsageEventInput => ({
  requestId: randomUUID(),
  userId,
  apiKeyId: 'key-1',
  environment: 'live',
  provider: 'openai',
  model: 'gpt-4o',
  promptTokens: 10,
  completionTokens: 5,
  costMicros: 75,
  latencyMs: 120,
  statusCode: 200,
  errorType: null,
  streamed: false,
  createdAt: new Date('2025-03-01T10:00:00Z'),
  ...overrides,
});

const batch = (userId: string): UsageEventInput[] => [
  event(userId, {}),
  event(userId, { statusCode: 429, errorType: 'rate_limit_error', promptTokens: 0, completionTokens: 0, costMicros: 0 }),
  event(userId, { streamed: true, createdAt: new Date('2025-03-01T23:59:59.999Z') }),
  event(userId, { environment: 'test', provider: 'sandbox', costMicros: 0, apiKeyId: null }),
  event(userId, { createdAt: new Date('2025-03-02T00:00:00Z'), model: 'o\'quote "model"' }),
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
      strip(await db.select().from(usageEvents).where(eq(usageEvents.userId, userId)).orderBy(asc(usageEvents.id))).map(
        ({ id: _id, requestId: _requestId, ...rest }) => rest,
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
    expect((await daily(viaBatch)).reduce((sum, row) => sum + row.requests, 0)).toBe(10);
  });
});
