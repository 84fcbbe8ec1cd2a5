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
  fake,
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

  it('meters chat requests whose body is refused before it is read: not JSON, not JSON typed, too large', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' });
    const post = (body: string, contentType: string) =>
      fetch(`${gateway.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
        body,
      });
    const valid = JSON.stringify({ model: 'gpt-4o', messages });
    const answers = [
      await post('{', 'application/json'),
      await post(valid, 'text/plain'),
      await post(`<chat>${valid}</chat>`, 'text/xml'),
      await post(`{"model":"gpt-4o","messages":[],"padding":"${'x'.repeat(8 * 1024 * 1024)}"}`, 'application/json'),
    ];
    const seen = await Promise.all(
      answers.map(async (answer) => [
        answer.status,
        ((await answer.json()) as { error: { code: string } }).error.code,
        answer.headers.get('x-request-id'),
      ]),
    );
    expect(seen.map(([status, code]) => [status, code])).toEqual([
      [400, 'invalid_json'],
      [415, 'unsupported_media_type'],
      [415, 'unsupported_media_type'],
      [413, 'request_too_large'],
    ]);
    await gateway.app.gateway.meter.flush();
    const events = await gateway.app.context.database.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect(events.map((event) => event.requestId).sort()).toEqual(seen.map(([, , id]) => id).sort());
    expect(events.map((event) => event.statusCode).sort()).toEqual([400, 413, 415, 415]);
    expect(events.every((event) => event.errorType === 'invalid_request_error' && event.environment === 'test')).toBe(true);
  });

  it('answers and meters the same estimate when the upstream reports no usage', async () => {
    const { userId, key } = await createAccountWithKey(gateway.app, 'enterprise');
    const body = {
      id: 'chatcmpl-no-usage',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'An answer of some forty characters long.' }, finish_reason: 'stop' }],
    };
    fake(fakes, 'openai').enqueue({ kind: 'status', status: 200, body });
    const completion = await sdk(gateway.origin, key).chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(completion.usage?.completion_tokens).toBe(10);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + 10);
    await gateway.app.gateway.meter.flush();
    const [event] = await gateway.app.context.database.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));
    expect([event?.promptTokens, event?.completionTokens]).toEqual([completion.usage?.prompt_tokens, completion.usage?.completion_tokens]);
  });
});
