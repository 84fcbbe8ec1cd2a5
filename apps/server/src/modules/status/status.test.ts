import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STATUS_HISTORY_DAYS, StatusResponse } from '@conductor/shared/schemas/status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import type { Database } from '../../db/client.ts';
import { dailyCounts, recordChecks } from './status.repository.ts';
import { createStatusService } from './status.service.ts';

const DAY_MS = 86_400_000;

async function getStatus(harness: TestApp) {
  const response = await harness.app.inject({ method: 'GET', url: '/v1/status' });
  expect(response.statusCode).toBe(200);
  return StatusResponse.parse(response.json());
}

describe('GET /v1/status', { timeout: 90_000 }, () => {
  let upstream: Server;
  let upstreamUrl: string;

  beforeAll(async () => {
    // A provider that is up but failing: every call answers 503.
    upstream = createServer((_request, response) => response.writeHead(503).end('{"error":"overloaded"}'));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('reports the platform components as operational with an empty 90-day history before any recorded check', async () => {
    const harness = await createTestApp();
    try {
      const status = await getStatus(harness);
      expect(status.status).toBe('operational');
      expect(status.components.map((component) => component.id)).toEqual(['api', 'gateway', 'database']);
      for (const component of status.components) {
        expect(component.status).toBe('operational');
        expect(component.history).toHaveLength(STATUS_HISTORY_DAYS);
        expect(component.history.every((day) => day.status === null)).toBe(true);
        expect(component.uptimePercent).toBeNull();
      }
      expect(status.components.find((component) => component.id === 'database')?.latencyMs).toEqual(expect.any(Number));
    } finally {
      await harness.close();
    }
  });

  it('reports a database outage as such, though the history cannot be read either', async () => {
    const harness = await createTestApp();
    try {
      const refused = () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      };
      const down = new Proxy({}, { get: () => refused }) as unknown as Database;
      const service = createStatusService({
        env: harness.app.context.env,
        db: down,
        pingDatabase: async () => false,
        isProviderHealthy: () => true,
        now: () => Date.now(),
      });
      const status = StatusResponse.parse(await service.getStatus());
      expect(status.status).toBe('outage');
      expect(status.components.find((component) => component.id === 'database')?.status).toBe('outage');
      expect(status.components.every((component) => component.history.every((day) => day.status === null))).toBe(true);
    } finally {
      await harness.close();
    }
  });

  it('shows a failing configured provider as degraded, which degrades the gateway and the overall state', async () => {
    const harness = await createTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: upstreamUrl, UPSTREAM_ALLOW_LOCAL: 'true' });
    // A database that answers at once, so that the provider alone degrades the gateway (a real
    // ping on a loaded test machine can pass the 1 s "slow database" mark by itself).
    harness.app.context.database.ping = async () => true;
    try {
      const status = await getStatus(harness);
      const byId = Object.fromEntries(status.components.map((component) => [component.id, component]));
      expect(byId['provider:openai']).toMatchObject({ name: 'OpenAI', group: 'provider', status: 'degraded' });
      expect(byId.gateway?.status).toBe('degraded');
      expect(byId.database?.status).toBe('operational');
      expect(status.status).toBe('degraded');
    } finally {
      await harness.close();
    }
  });

  it('shows an unreachable provider as an outage and a lost database as a platform outage', async () => {
    const harness = await createTestApp({
      COHERE_API_KEY: 'cohere-test-key',
      COHERE_BASE_URL: 'http://127.0.0.1:9',
      UPSTREAM_ALLOW_LOCAL: 'true',
    });
    try {
      const first = await getStatus(harness);
      expect(first.components.find((component) => component.id === 'provider:cohere')?.status).toBe('outage');
      expect(first.status).toBe('degraded');

      const other = await createTestApp();
      try {
        other.app.context.database.ping = async () => false;
        const down = await getStatus(other);
        expect(down.status).toBe('outage');
        expect(down.components.find((component) => component.id === 'database')).toMatchObject({ status: 'outage', latencyMs: null });
        expect(down.components.find((component) => component.id === 'gateway')?.status).toBe('outage');
      } finally {
        await other.close();
      }
    } finally {
      await harness.close();
    }
  });

  it('builds each day of the uptime bars from the recorded checks', async () => {
    const harness = await createTestApp();
    try {
      const db = harness.app.context.database.db;
      const now = Date.now();
      const twoDaysAgo = new Date(now - 2 * DAY_MS);
      const yesterday = new Date(now - DAY_MS);
      for (let index = 0; index < 3; index += 1) {
        await recordChecks(db, [{ component: 'database', status: 'operational', latencyMs: 3 }], twoDaysAgo);
      }
      await recordChecks(db, [{ component: 'database', status: 'degraded', latencyMs: 1_500 }], yesterday);
      await recordChecks(db, [{ component: 'database', status: 'operational', latencyMs: 2 }], yesterday);
      await recordChecks(db, [{ component: 'api', status: 'outage', latencyMs: null }], yesterday);
      await recordChecks(db, [{ component: 'database', status: 'outage', latencyMs: null }], new Date(now - 200 * DAY_MS));

      const status = await getStatus(harness);
      const database = status.components.find((component) => component.id === 'database');
      const api = status.components.find((component) => component.id === 'api');
      const dayOf = (date: Date) => date.toISOString().slice(0, 10);
      expect(database?.history.find((day) => day.date === dayOf(twoDaysAgo))).toMatchObject({
        status: 'operational',
        checks: 3,
        uptimePercent: 100,
      });
      expect(database?.history.find((day) => day.date === dayOf(yesterday))).toMatchObject({ status: 'degraded', checks: 2 });
      expect(database?.uptimePercent).toBe(100);
      expect(api?.history.find((day) => day.date === dayOf(yesterday))).toMatchObject({ status: 'outage', uptimePercent: 0 });
      expect(api?.uptimePercent).toBe(0);
      expect(database?.history.at(-1)?.date).toBe(dayOf(new Date(now)));
    } finally {
      await harness.close();
    }
  });

  it('records a round of checks on the schedule when switched on, and stops on close', { timeout: 60_000 }, async () => {
    const harness = await createTestApp({ HEALTH_CHECK_SCHEDULER: 'on', HEALTH_CHECK_INTERVAL_MS: '1000' });
    const db = harness.app.context.database.db;
    let counts: Awaited<ReturnType<typeof dailyCounts>> = [];
    for (let attempt = 0; attempt < 250 && counts.length < 3; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counts = await dailyCounts(db, new Date(Date.now() - DAY_MS), new Date(Date.now() + DAY_MS));
    }
    expect(counts.map((row) => row.component).sort()).toEqual(['api', 'database', 'gateway']);
    expect(counts.every((row) => row.status === 'operational')).toBe(true);
    const status = await getStatus(harness);
    expect(status.components.find((component) => component.id === 'database')?.history.at(-1)?.checks).toBeGreaterThanOrEqual(1);
    await harness.close();
  });

  it('does not record anything under NODE_ENV=test unless switched on', async () => {
    const harness = await createTestApp({ HEALTH_CHECK_INTERVAL_MS: '1000' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const counts = await dailyCounts(harness.app.context.database.db, new Date(Date.now() - DAY_MS), new Date(Date.now() + DAY_MS));
      expect(counts).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
