import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { insertApiKey } from '../api-keys/api-keys.repository.ts';
import { settableClock, usageEvent } from '../portal/portal-testing.ts';
import type { UsageCell } from './usage.repository.ts';
import { summariseCells } from './usage.service.ts';
import { recordUsageEvents } from './usage.writer.ts';

const clock = settableClock('2026-03-15T12:30:00.000Z');

describe('usage endpoints', () => {
  let harness: TestApp;
  let alice: { cookie: string; id: string };
  let bob: { cookie: string; id: string };

  beforeAll(async () => {
    harness = await createTestApp({}, { clock });
    const a = await createUserWithSession(harness.app, { plan: 'pro', name: 'Alice Example' });
    const b = await createUserWithSession(harness.app);
    alice = { cookie: a.cookie, id: a.user.id };
    bob = { cookie: b.cookie, id: b.user.id };
    await insertApiKey(harness.app.context.database.db, {
      id: 'key_alice',
      userId: alice.id,
      name: 'Backend',
      environment: 'live',
      masked: 'cc_live_sk_aaaaa...zzzz',
      keyHash: 'hash-alice',
      permissions: ['api'],
    });
    await recordUsageEvents(harness.app.context.database.db, [
      // Today (three live, one an error; one test-key request).
      usageEvent(alice.id, '2026-03-15T09:00:00Z', { apiKeyId: 'key_alice', latencyMs: 300 }),
      usageEvent(alice.id, '2026-03-15T10:00:00Z', { model: 'claude-3-5-sonnet', provider: 'anthropic', costMicros: 1000, latencyMs: 900 }),
      usageEvent(alice.id, '2026-03-15T11:00:00Z', {
        statusCode: 502,
        errorType: 'api_error',
        promptTokens: 0,
        completionTokens: 0,
        costMicros: 0,
        latencyMs: 60,
      }),
      usageEvent(alice.id, '2026-03-15T12:00:00Z', { environment: 'test', costMicros: 0, latencyMs: 40 }),
      // Earlier this week and in the previous 7-day window.
      usageEvent(alice.id, '2026-03-10T08:00:00Z'),
      usageEvent(alice.id, '2026-03-05T08:00:00Z', { promptTokens: 200, completionTokens: 100 }),
      // Last month: outside this month's quota.
      usageEvent(alice.id, '2026-02-20T08:00:00Z', { promptTokens: 5000, completionTokens: 5000 }),
      // Another user's traffic never shows up in Alice's numbers.
      usageEvent(bob.id, '2026-03-15T09:30:00Z', { promptTokens: 9999, completionTokens: 1 }),
    ]);
  });
  afterAll(async () => harness.close());

  const get = (url: string, cookie: string) => harness.app.inject({ method: 'GET', url, headers: { cookie } });

  it('serves this month’s usage, today’s requests and the plan limits', async () => {
    const response = await get('/api/v1/observability/usage/current', alice.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      plan: 'pro',
      // Live only: 150 + 150 + 0 + 150 + 300 (the test-key request and February do not count).
      tokensUsed: 750,
      ownKeyTokens: 0,
      // The test-key request's tokens, named apart (the charts include them; the quota does not).
      testTokens: 150,
      tokensLimit: 1_000_000,
      requestsToday: 4,
      requestsLimitPerMinute: 100,
      costThisMonthMicros: 45 + 1000 + 0 + 0 + 45 + 45,
      monthStart: '2026-03-01',
    });
  });

  it('computes range totals, the previous period, a daily series and the by-model table', async () => {
    const response = await get('/api/v1/observability/metrics?range=7d', alice.cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ range: '7d', granularity: 'day', from: '2026-03-09T00:00:00.000Z', to: '2026-03-16T00:00:00.000Z' });
    expect(body.summary).toEqual({
      requests: 5,
      errors: 1,
      promptTokens: 400,
      completionTokens: 200,
      totalTokens: 600,
      costMicros: 1090,
      avgLatencyMs: Math.round((300 + 900 + 60 + 40 + 400) / 5),
      successRate: 0.8,
    });
    expect(body.previous).toMatchObject({ requests: 1, totalTokens: 300 });
    expect(body.series).toHaveLength(7);
    expect(body.series[0]).toEqual({ bucket: '2026-03-09', requests: 0, errors: 0, tokens: 0, costMicros: 0 });
    expect(body.series[1]).toMatchObject({ bucket: '2026-03-10', requests: 1, tokens: 150 });
    expect(body.series[6]).toMatchObject({ bucket: '2026-03-15', requests: 4, errors: 1, tokens: 450 });
    expect(body.byModel).toEqual([
      // 450 tokens against the previous week's 300 at the pace of the 6.52 of its 7 days gone so far (279.5): +61%.
      { model: 'gpt-4o-mini', provider: 'openai', requests: 4, tokens: 450, costMicros: 90, previousTokens: 300, trendPercent: 61 },
      {
        model: 'claude-3-5-sonnet',
        provider: 'anthropic',
        requests: 1,
        tokens: 150,
        costMicros: 1000,
        previousTokens: 0,
        trendPercent: null,
      },
    ]);
  });

  it('answers every range, with hourly buckets for 24h', async () => {
    const day = (await get('/api/v1/observability/metrics?range=24h', alice.cookie)).json();
    expect(day.granularity).toBe('hour');
    expect(day.series).toHaveLength(24);
    expect(day.series.at(-1).bucket).toBe('2026-03-15T12:00:00.000Z');
    expect(day.summary.requests).toBe(4);
    for (const [range, days] of [
      ['30d', 30],
      ['90d', 90],
    ] as const) {
      const body = (await get(`/api/v1/observability/metrics?range=${range}`, alice.cookie)).json();
      expect(body.series).toHaveLength(days);
    }
    const ninety = (await get('/api/v1/observability/metrics?range=90d', alice.cookie)).json();
    expect(ninety.summary.requests).toBe(7);
  });

  it('lists the latest requests with their status and key name', async () => {
    const response = await get('/api/v1/observability/usage/activity', alice.cookie);
    const { items } = response.json();
    expect(items).toHaveLength(5);
    expect(items.map((item: { createdAt: string }) => item.createdAt)).toEqual([
      '2026-03-15T12:00:00.000Z',
      '2026-03-15T11:00:00.000Z',
      '2026-03-15T10:00:00.000Z',
      '2026-03-15T09:00:00.000Z',
      '2026-03-10T08:00:00.000Z',
    ]);
    expect(items[1]).toMatchObject({ status: 'error', statusCode: 502, errorType: 'api_error' });
    expect(items[0]).toMatchObject({ status: 'success', environment: 'test' });
    expect(items[3]).toMatchObject({ apiKeyName: 'Backend', totalTokens: 150 });
    const two = (await get('/api/v1/observability/usage/activity?limit=2', alice.cookie)).json();
    expect(two.items).toHaveLength(2);
  });

  it('exports the range as CSV', async () => {
    const response = await get('/api/v1/observability/usage/export?range=7d', alice.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="conductor-usage-7d-2026-03-15\.csv"/);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'period_start,model,provider,requests,errors,prompt_tokens,completion_tokens,total_tokens,cost_usd,avg_latency_ms',
    );
    expect(lines.slice(1)).toEqual([
      '2026-03-10,gpt-4o-mini,openai,1,0,100,50,150,0.000045,400',
      '2026-03-15,claude-3-5-sonnet,anthropic,1,0,100,50,150,0.001000,900',
      '2026-03-15,gpt-4o-mini,openai,3,1,200,100,300,0.000045,133',
    ]);
  });

  it('never shows one user’s usage to another', async () => {
    const metrics = (await get('/api/v1/observability/metrics?range=90d', bob.cookie)).json();
    expect(metrics.summary.requests).toBe(1);
    expect(metrics.summary.totalTokens).toBe(10_000);
    const activity = (await get('/api/v1/observability/usage/activity?limit=50', bob.cookie)).json();
    expect(activity.items).toHaveLength(1);
    expect(activity.items[0].apiKeyName).toBeNull();
    const current = (await get('/api/v1/observability/usage/current', bob.cookie)).json();
    expect(current).toMatchObject({ plan: 'free', tokensUsed: 10_000, tokensLimit: 10_000, requestsToday: 1, requestsLimitPerMinute: 10 });
  });

  it('shows a new user zero usage and empty lists', async () => {
    const fresh = await createUserWithSession(harness.app);
    const metrics = (await get('/api/v1/observability/metrics?range=30d', fresh.cookie)).json();
    expect(metrics.summary).toMatchObject({ requests: 0, totalTokens: 0, avgLatencyMs: null, successRate: null });
    expect(metrics.byModel).toEqual([]);
    expect((await get('/api/v1/observability/usage/activity', fresh.cookie)).json()).toEqual({ items: [] });
  });

  it('refuses bad input with 400', async () => {
    for (const url of [
      '/api/v1/observability/metrics?range=1y',
      '/api/v1/observability/metrics?range=7d&extra=1',
      '/api/v1/observability/usage/activity?limit=0',
      '/api/v1/observability/usage/activity?limit=51',
      '/api/v1/observability/usage/activity?limit=abc',
      '/api/v1/observability/usage/export?range=forever',
    ]) {
      const response = await get(url, alice.cookie);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
  });

  it('needs a session', async () => {
    for (const url of [
      '/api/v1/observability/usage/current',
      '/api/v1/observability/metrics',
      '/api/v1/observability/usage/activity',
      '/api/v1/observability/usage/export',
    ]) {
      expect((await harness.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });
});

describe('usage trend', () => {
  const steady = (from: number, days: number, now: number): UsageCell[] =>
    Array.from({ length: days }, (_, index) => {
      const start = from + index * 86_400_000;
      // One 100-token request an hour, up to `now` on its last day.
      const hours = Math.max(0, Math.min(24, Math.floor((now - start) / 3_600_000) + 1));
      const bucket = new Date(start).toISOString().slice(0, 10);
      return {
        bucket,
        model: 'gpt-4o',
        provider: 'openai',
        requests: hours,
        errors: 0,
        promptTokens: 60 * hours,
        completionTokens: 40 * hours,
        costMicros: 0,
        latencyMsSum: 0,
      };
    });

  it('reads steady traffic as steady early in a UTC day, not as a drop of up to a day’s share', () => {
    const now = Date.parse('2026-03-16T00:30:00Z');
    for (const [range, days] of [
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
    ] as const) {
      const cells = steady(Date.parse('2026-03-16T00:00:00Z') - (2 * days - 1) * 86_400_000, 2 * days, now);
      const trend = summariseCells(range, now, cells).byModel[0]?.trendPercent ?? Number.NaN;
      expect(Math.abs(trend), range).toBeLessThan(1);
    }
  });
});
