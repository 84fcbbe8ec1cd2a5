import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { usageEvent } from '../../../test/usage-events.ts';
import type { Database } from '../../db/client.ts';
import { apiKeys, usageDaily, usageEvents } from '../../db/schema/index.ts';
import { writeUsageBatch } from './usage-batch.repository.ts';
import { UsageMeter } from './usage-meter.ts';

const event = usageEvent;

/** The events of a batch insert on PostgreSQL: its one JSON string parameter. */
const batchRows = (query: unknown): { request_id: string }[] =>
  JSON.parse(String((query as { queryChunks: unknown[] }).queryChunks.find((chunk) => typeof chunk === 'string')));

/**
 * A stand-in for drizzle's `transaction` on PostgreSQL that hands each written batch's events to
 * `onBatch` (the insert carries them as its one JSON string parameter).
 */
const recordingTransaction =
  (onBatch: (rows: { request_id: string }[]) => void) =>
  async (callback: (tx: { execute(query: unknown): Promise<void> }) => Promise<void>) => {
    let first = true;
    await callback({
      execute: async (query: unknown) => {
        if (first) onBatch(batchRows(query));
        first = false;
      },
    });
  };

const silentLog = () => {
  const log = { warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn(), trace: vi.fn(), fatal: vi.fn() };
  return log as unknown as import('fastify').FastifyBaseLogger & typeof log;
};

// A model name cut at 128 UTF-16 units with an emoji across the cut ends in a lone high
// surrogate (chat-call.ts now repairs its cut; the writer must repair any such text too).
const splitEmojiModel = `${'m'.repeat(127)}😀`.slice(0, 128);

describe('usage metering: data PostgreSQL refuses, key stamps', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness?.close());

  it('stores an event whose model name ends in a lone surrogate (as slice(0, 128) produces)', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    expect(splitEmojiModel.charCodeAt(127)).toBe(0xd83d);
    await expect(writeUsageBatch(db, [event(userId, { model: splitEmojiModel })])).resolves.toBeUndefined();
    const rows = await db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect(rows.map((row) => row.model)).toEqual([`${'m'.repeat(127)}\uFFFD`]);
  });

  it('writes such an event with the batch (no failed batch, nothing left pending)', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    const log = silentLog();
    const meter = new UsageMeter({ db, log, flushIntervalMs: 3_600_000 });
    meter.record(event(userId, { model: splitEmojiModel }));
    for (let round = 0; round < 3; round += 1) {
      meter.record(event(userId));
      await meter.flush();
    }
    await meter.close();
    expect(log.warn).not.toHaveBeenCalled();
    expect(meter.pending).toBe(0);
    expect(await db.select().from(usageEvents).where(eq(usageEvents.userId, userId))).toHaveLength(4);
  });

  it('drops an event the database refuses as invalid data (SQLSTATE class 22) instead of retrying it every flush', async () => {
    const invalid = Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' });
    const transaction = vi.fn(async () => Promise.reject(invalid));
    const db = { transaction, execute: vi.fn(async () => undefined) } as unknown as Database;
    const log = silentLog();
    const meter = new UsageMeter({ db, log, flushIntervalMs: 3_600_000 });
    meter.record(event('someone'));
    await meter.flush();
    expect(meter.pending).toBe(0);
    expect(log.error).toHaveBeenCalledTimes(1);
    await meter.flush();
    expect(transaction).toHaveBeenCalledTimes(2); // the batch, then the event alone: not again
    await meter.close();
  });

  it('takes a batch sent again after its acknowledgement was lost as written: nothing counted twice, no error', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    const sent = Array.from({ length: 5 }, (_, index) =>
      event(userId, { promptTokens: 10 + index, keySource: index === 0 ? 'byok' : 'hosted' }),
    );
    // The first attempt committed, but the connection dropped before its reply: the meter kept the batch.
    await writeUsageBatch(db, sent);
    const stored = async () => ({
      events: await db.select().from(usageEvents).where(eq(usageEvents.userId, userId)).orderBy(asc(usageEvents.requestId)),
      daily: await db.select().from(usageDaily).where(eq(usageDaily.userId, userId)),
    });
    const before = await stored();
    expect(before.daily.map((row) => row.requests)).toEqual([5]);
    const log = silentLog();
    const meter = new UsageMeter({ db, log, flushIntervalMs: 3_600_000, batchSize: 10 });
    for (const item of sent) meter.record(item);
    await meter.flush();
    expect(meter.pending).toBe(0);
    expect(await stored()).toEqual(before);
    // With an event not yet written in the batch, that one is written, once.
    const fresh = event(userId, { promptTokens: 1 });
    for (const item of [...sent.slice(0, 2), fresh]) meter.record(item);
    await meter.close();
    expect(meter.pending).toBe(0);
    const after = await stored();
    expect(after.events.map((row) => row.requestId)).toEqual([...sent, fresh].map((item) => item.requestId));
    expect(after.daily.map((row) => [row.requests, row.promptTokens, row.ownKeyTokens])).toEqual([[6, 10 + 11 + 12 + 13 + 14 + 1, 15]]);
    expect(log.error).not.toHaveBeenCalled();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('writes the rollup for an event dated after year 9999 (where toISOString() is not a day PostgreSQL reads)', async () => {
    const db = harness.app.context.database.db;
    const userId = (await createUserWithSession(harness.app)).user.id;
    await expect(writeUsageBatch(db, [event(userId, { createdAt: new Date('+010000-01-01T00:00:00Z') })])).resolves.toBeUndefined();
  });

  it('stamps a key with its latest use, not the use recorded last', async () => {
    const db = harness.app.context.database.db;
    const { user } = await createUserWithSession(harness.app);
    const keyId = randomUUID();
    await db.insert(apiKeys).values({
      id: keyId,
      userId: user.id,
      name: 'k',
      environment: 'live',
      masked: 'sk-…',
      keyHash: randomUUID(),
      permissions: [],
    } as never);
    const meter = new UsageMeter({ db, log: silentLog(), flushIntervalMs: 3_600_000 });
    // A short request finished (and is recorded) at 10:05; a long stream started at 10:00 is recorded after it.
    meter.record(event(user.id, { apiKeyId: keyId, createdAt: new Date('2025-03-01T10:05:00Z') }));
    meter.record(event(user.id, { apiKeyId: keyId, createdAt: new Date('2025-03-01T10:00:00Z'), streamed: true }));
    await meter.close();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row?.lastUsedAt?.toISOString()).toBe('2025-03-01T10:05:00.000Z');
  });
});

describe('usage meter with a failing last-use stamp', () => {
  it('stamps the key later when the first stamp write failed', async () => {
    const execute = vi.fn().mockRejectedValueOnce(new Error('connection reset')).mockResolvedValue(undefined);
    const db = { transaction: async (fn: (tx: unknown) => Promise<void>) => fn({ execute: async () => undefined }), execute };
    const meter = new UsageMeter({ db: db as unknown as Database, log: silentLog(), flushIntervalMs: 3_600_000 });
    meter.record(event('u', { apiKeyId: 'key-1', createdAt: new Date('2025-03-01T10:00:00Z') }));
    await meter.flush(); // the stamp write fails
    meter.record(event('u', { apiKeyId: 'key-1', createdAt: new Date('2025-03-01T10:00:30Z') }));
    await meter.close();
    // Second attempt should carry the key again; it is skipped as "stamped 30 s ago" though nothing was written.
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxBuffered events while a flush hangs, dropping the oldest', async () => {
    const hung = new Promise<never>(() => undefined);
    const db = { transaction: vi.fn(async () => hung), execute: vi.fn(async () => undefined) } as unknown as Database;
    const log = silentLog();
    const meter = new UsageMeter({ db, log, flushIntervalMs: 3_600_000, batchSize: 100, maxBuffered: 1_000 });
    for (let index = 0; index < 3_000; index += 1) meter.record(event('someone'));
    // The first 100 are in the hung flush; of the rest, at most 1,000 wait, the newest kept.
    expect(meter.pending).toBeLessThanOrEqual(1_000);
    expect(meter.pending).toBeGreaterThan(900);
    // Logged once for the whole burst (not once per dropped batch), with the count dropped.
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]?.[0]).toMatchObject({ dropped: 100 });
  });

  it('writes a backlog in batches of batchSize, not as one statement', async () => {
    const sizes: number[] = [];
    const transaction = vi.fn(recordingTransaction((rows) => sizes.push(rows.length)));
    const db = { transaction, execute: vi.fn(async () => undefined) } as unknown as Database;
    const meter = new UsageMeter({ db, log: silentLog(), flushIntervalMs: 3_600_000, batchSize: 3 });
    // The third event starts a flush of three; the seven after it wait for the next flush.
    for (let index = 0; index < 10; index += 1) meter.record(event('someone'));
    await meter.flush();
    expect(sizes).toEqual([3, 3, 3, 1]);
    expect(meter.pending).toBe(0);
    await meter.close();
  });

  it('keeps a batch and the rest for the next flush when nothing of it can be written (database down)', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const transaction = vi.fn(async () => Promise.reject(down));
    const db = { transaction, execute: vi.fn(async () => undefined) } as unknown as Database;
    const meter = new UsageMeter({ db, log: silentLog(), flushIntervalMs: 3_600_000, batchSize: 3 });
    const events = Array.from({ length: 10 }, () => event('someone'));
    for (const item of events) meter.record(item);
    await meter.flush();
    // Each flush tries one batch, then its first event alone, and stops: 2 × (1 + 1) attempts, not every event.
    expect(transaction).toHaveBeenCalledTimes(4);
    expect(meter.pending).toBe(10);
    // Nothing lost or reordered: once the database answers, all ten are written in order.
    const written: string[] = [];
    transaction.mockImplementation(recordingTransaction((rows) => written.push(...rows.map((row) => row.request_id))) as never);
    await meter.close();
    expect(written).toEqual(events.map((item) => item.requestId));
  });
});

/**
 * A stand-in for drizzle's `transaction` on PostgreSQL: the insert's
 * one JSON string parameter holds the batch. A batch holding a request id in `failing` fails with
 * a transient error (no SQLSTATE); the others are written to `written`.
 */
function flakyDatabase(failing: Set<string>, written: string[]): Database {
  const transaction = async (callback: (tx: { execute(query: unknown): Promise<void> }) => Promise<void>) => {
    let first = true;
    let rows: { request_id: string }[] = [];
    await callback({
      execute: async (query: unknown) => {
        if (first) {
          rows = batchRows(query);
          if (rows.some((row) => failing.has(row.request_id))) throw new Error('timeout (transient)');
        }
        first = false;
      },
    });
    written.push(...rows.map((row) => row.request_id));
  };
  return { transaction, execute: vi.fn(async () => undefined) } as unknown as Database;
}

describe('usage meter: events retried from two partly failed batches of one flush', () => {
  it('are written later in the order they were recorded', async () => {
    const failing = new Set<string>();
    const written: string[] = [];
    const meter = new UsageMeter({ db: flakyDatabase(failing, written), log: silentLog(), flushIntervalMs: 3_600_000, batchSize: 2 });
    const events = Array.from({ length: 6 }, () => usageEvent('someone'));
    // e0, e1 start a flush; e2..e5 are recorded while it runs and form one backlog of two batches.
    for (const item of events) meter.record(item);
    const [, , e2, , e4] = events.map((item) => item.requestId);
    failing.add(e2 as string);
    failing.add(e4 as string);
    await meter.flush();
    // A failure that is not the event's data stops the retry: e2..e5 are all kept for later, none lost.
    expect(meter.pending).toBe(4);
    failing.clear();
    written.length = 0;
    await meter.close();
    expect(written).toEqual(events.slice(2).map((item) => item.requestId));
  });
});
