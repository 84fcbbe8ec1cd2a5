import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { closeGracefully } from './readiness.ts';

describe('liveness and readiness probes', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  it('is live and ready while the database answers', async () => {
    const live = await harness.app.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await harness.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('stays live but not ready while the database is unreachable', async () => {
    const { database } = harness.app.context;
    const realPing = database.ping;
    database.ping = async () => false;
    try {
      const live = await harness.app.inject({ method: 'GET', url: '/livez' });
      expect(live.statusCode).toBe(200);
      const ready = await harness.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not_ready', reason: 'database_unreachable' });
      // The public health endpoint is unchanged: 503 on a database outage.
      expect((await harness.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(503);
    } finally {
      database.ping = realPing;
    }
    expect((await harness.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('is not ready from the start of a shutdown, and still serves during the drain', async () => {
    const other = await createTestApp();
    const closed = closeGracefully(other.app, 400);
    const ready = await other.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not_ready', reason: 'shutting_down' });
    expect((await other.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await other.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
    await closed;
    await other.close();
  });
});
