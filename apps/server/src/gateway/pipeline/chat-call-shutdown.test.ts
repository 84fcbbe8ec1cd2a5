import { eq } from 'drizzle-orm';
import type { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { usageEvents } from '../../db/schema/index.ts';
import { closeGracefully } from '../../modules/health/readiness.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.ts';
import {
  closeFakes,
  createAccountWithKey,
  type Fakes,
  fake,
  type LiveGateway,
  sdk,
  startFakes,
  startGateway,
  upstreamEnv,
} from '../../../test/gateway/gateway-helpers.ts';

const messages = [{ role: 'user' as const, content: 'Hello' }];
const LONG_TEXT = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');

/**
 * A stop while streams are open: each ends at once with an explicit error event (never a silent
 * cut), the listener closes without waiting for them, and their usage is written before the
 * database closes. The database outlives each app, so the test reads what the app wrote.
 */
describe('streams open when the server shuts down', () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let fakes: Fakes;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ url: testDatabase.url, thread: 'main' });
    fakes = await startFakes(['openai']);
  });
  afterAll(async () => {
    await closeFakes(fakes);
    await database?.close();
    await testDatabase?.drop();
  });

  const start = (): Promise<LiveGateway> =>
    startGateway({ ...upstreamEnv(fakes), GATEWAY_USAGE_FLUSH_MS: '60000', UPSTREAM_TIMEOUT_MS: '30000' }, { database });
  const usageOf = (userId: string) => database.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));

  it('ends a live stream with the shutdown error event, and meters it', async () => {
    const gateway = await start();
    try {
      fake(fakes, 'openai').enqueue({ kind: 'slow-stream', intervalMs: 100, text: LONG_TEXT });
      const { userId, key } = await createAccountWithKey(gateway.app, 'pro');
      const stream = await sdk(gateway.origin, key).chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
      let content = '';
      let closing: Promise<void> | undefined;
      const started = performance.now();
      const error = await (async () => {
        for await (const chunk of stream) {
          content += chunk.choices[0]?.delta.content ?? '';
          closing ??= closeGracefully(gateway.app, 0);
        }
      })().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'server_shutting_down', type: 'api_error' });
      expect((error as APIError).message).toContain('The server is restarting; the answer above is incomplete. Retry the request.');
      expect(content).not.toBe('');
      await closing;
      // Closed without waiting for the upstream's 20 s stream.
      expect(performance.now() - started).toBeLessThan(10_000);
      await expect.poll(() => fake(fakes, 'openai').requests[0]?.closedEarly, { timeout: 3_000 }).toBe(true);

      const events = await usageOf(userId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ statusCode: 503, errorType: 'server_shutting_down', streamed: true, provider: 'openai' });
      expect(events[0]?.completionTokens).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  });

  it('ends a sandbox stream waiting out its latency with a retryable 503, and meters it', async () => {
    const gateway = await start();
    try {
      const { userId, key } = await createAccountWithKey(gateway.app, 'pro', { environment: 'test' });
      const answer = sdk(gateway.origin, key)
        .chat.completions.create(
          { model: 'gpt-4o-mini', messages, stream: true },
          { headers: { 'x-conductor-sandbox-latency-ms': '20000' } },
        )
        .catch((caught: unknown) => caught);
      await expect.poll(() => gateway.app.gateway.streams.size, { timeout: 5_000 }).toBe(1);
      const started = performance.now();
      await closeGracefully(gateway.app, 0);
      expect(performance.now() - started).toBeLessThan(10_000);
      const error = (await answer) as APIError;
      expect(error.status).toBe(503);
      expect(error).toMatchObject({ code: 'server_shutting_down', type: 'api_error' });

      const events = await usageOf(userId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ statusCode: 503, errorType: 'api_error', environment: 'test' });
    } finally {
      await gateway.close();
    }
  });
});
