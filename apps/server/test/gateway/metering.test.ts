import { eq } from 'drizzle-orm';
import type { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { apiKeys, usageDaily, usageEvents } from '../../src/db/schema/index.ts';
import { createTestDatabase } from '../helpers.ts';
import {
  addKey,
  closeFakes,
  createAccountWithKey,
  type Fakes,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from './gateway-helpers.ts';

const messages = [{ role: 'user' as const, content: 'Count my tokens' }];

describe('usage metering', () => {
  let fakes: Fakes;
  let gateway: LiveGateway;

  beforeAll(async () => {
    fakes = await startFakes(['openai']);
    // A long interval: only explicit flushes (or closing) write, so the test sees the batching.
    gateway = await startGateway({ ...upstreamEnv(fakes), GATEWAY_USAGE_FLUSH_MS: '60000' });
  });
  afterAll(async () => {
    await gateway?.close();
    await closeFakes(fakes);
  });

  it('records every request, success or error, off the hot path, with the daily rollup and last use', async () => {
    const { userId, key, keyId } = await createAccountWithKey(gateway.app, 'enterprise');
    const { key: testKey, keyId: testKeyId } = await addKey(gateway.app, userId, { environment: 'test' });
    const live = sdk(gateway.origin, key);
    const { response } = await live.chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    const stream = await live.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    for await (const _chunk of stream) {
      // drain
    }
    await sdk(gateway.origin, testKey).chat.completions.create({ model: 'claude-3-5-haiku', messages });
    await live.chat.completions.create({ model: 'gpt-4o-mini', messages, temperature: 9 }).catch(() => undefined);
    await live.chat.completions.create({ model: 'no-such-model', messages }).catch(() => undefined);

    expect(gateway.app.gateway.meter.pending).toBe(5);
    const db = gateway.app.context.database.db;
    expect(await db.select().from(usageEvents).where(eq(usageEvents.userId, userId))).toHaveLength(0);
    await gateway.app.gateway.meter.flush();

    const events = await db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect(events).toHaveLength(5);
    const json = events.find((event) => event.requestId === response.headers.get('x-request-id'));
    expect(json).toMatchObject({
      apiKeyId: keyId,
      environment: 'live',
      provider: 'openai',
      model: 'gpt-4o-mini',
      statusCode: 200,
      streamed: false,
      errorType: null,
    });
    expect(json?.promptTokens).toBeGreaterThan(0);
    expect(json?.costMicros).toBeGreaterThan(0);
    expect(json?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(events.find((event) => event.streamed)).toMatchObject({ provider: 'openai', statusCode: 200, environment: 'live' });
    expect(events.find((event) => event.environment === 'test')).toMatchObject({
      apiKeyId: testKeyId,
      provider: 'sandbox',
      model: 'claude-3-5-haiku',
      costMicros: 0,
      statusCode: 200,
    });
    expect(
      events
        .filter((event) => event.statusCode >= 400)
        .map((event) => [event.statusCode, event.errorType])
        .sort(),
    ).toEqual([
      [400, 'invalid_request_error'],
      [404, 'not_found_error'],
    ]);

    const daily = await db.select().from(usageDaily).where(eq(usageDaily.userId, userId));
    expect(daily.reduce((sum, row) => sum + row.requests, 0)).toBe(5);
    expect(daily.reduce((sum, row) => sum + row.errors, 0)).toBe(2);
    const [stamped] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(stamped?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('writes what is still buffered when the app closes', async () => {
    const testDatabase = await createTestDatabase();
    const database = await openDatabase({ url: testDatabase.url });
    try {
      const instance = await startGateway({ GATEWAY_USAGE_FLUSH_MS: '60000' }, { database });
      const { userId, key } = await createAccountWithKey(instance.app, 'free', { environment: 'test' });
      await sdk(instance.origin, key).chat.completions.create({ model: 'gpt-4o', messages });
      expect(instance.app.gateway.meter.pending).toBe(1);
      await instance.close();
      const events = await database.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
      expect(events).toHaveLength(1);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });

  it('meters a rate-limited request too', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'free', { environment: 'test' });
    const client = sdk(gateway.origin, key);
    const results = await Promise.all(
      Array.from(
        { length: 11 },
        (): Promise<number | undefined> =>
          client.chat.completions.create({ model: 'gpt-4o', messages }).then(
            () => 200,
            (error: APIError) => error.status,
          ),
      ),
    );
    expect(results.filter((status) => status === 429)).toHaveLength(1);
    await gateway.app.gateway.meter.flush();
    const events = await gateway.app.context.database.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect(events.filter((event) => event.statusCode === 429)).toHaveLength(1);
  });
});
