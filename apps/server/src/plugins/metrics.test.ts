import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

describe('GET /metrics', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp({ METRICS_TOKEN: 'metrics-token-for-tests' });
  });
  afterAll(async () => harness.close());

  it('exposes request counts and latencies by route in Prometheus format on loopback', async () => {
    await harness.app.inject({ method: 'GET', url: '/v1/health' });
    const response = await harness.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/plain/);
    expect(response.body).toMatch(/conductor_http_requests_total\{method="GET",route="\/v1\/health",status="200"\} [1-9]/);
    expect(response.body).toContain('conductor_http_request_duration_seconds_bucket');
  });

  it('counts every request into its status and latency series, buckets cumulative up to +Inf', async () => {
    for (let index = 0; index < 3; index += 1) await harness.app.inject({ method: 'GET', url: '/v1/models' });
    await harness.app.inject({ method: 'GET', url: '/v1/no-such-route' });
    const body = (await harness.app.inject({ method: 'GET', url: '/metrics' })).body;
    const value = (line: RegExp) => Number(body.match(line)?.[1]);
    expect(value(/^conductor_http_requests_total\{method="GET",route="\/v1\/models",status="401"\} (\d+)$/m)).toBe(3);
    expect(value(/^conductor_http_requests_total\{method="GET",route="unmatched",status="404"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    const series = 'method="GET",route="/v1/models"';
    const buckets = [
      ...body.matchAll(new RegExp(`^conductor_http_request_duration_seconds_bucket\\{le="([^"]+)",${series}\\} (\\d+)$`, 'gm')),
    ];
    expect(buckets.map((match) => match[1])).toEqual([
      '0.001',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '30',
      '+Inf',
    ]);
    const counts = buckets.map((match) => Number(match[2]));
    expect(counts).toEqual([...counts].sort((left, right) => left - right));
    expect(counts.at(-1)).toBe(3);
    expect(value(new RegExp(`^conductor_http_request_duration_seconds_count\\{${series}\\} (\\d+)$`, 'm'))).toBe(3);
    expect(value(new RegExp(`^conductor_http_request_duration_seconds_sum\\{${series}\\} ([\\d.e-]+)$`, 'm'))).toBeGreaterThan(0);
    expect(body).toMatch(/^# TYPE conductor_http_request_duration_seconds histogram$/m);
    expect(body).toMatch(/^# TYPE conductor_http_requests_total counter$/m);
  });

  it('refuses other addresses without the token and accepts the token', async () => {
    const remote = await harness.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    const wrong = await harness.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(403);
    const withToken = await harness.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer metrics-token-for-tests' },
    });
    expect(withToken.statusCode).toBe(200);
  });

  it('does not count a request relayed by a reverse proxy on the same host as local', async () => {
    for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }]) {
      const relayed = await harness.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers });
      expect(relayed.statusCode).toBe(403);
      const withToken = await harness.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { ...headers, authorization: 'Bearer metrics-token-for-tests' },
      });
      expect(withToken.statusCode).toBe(200);
    }
  });
});

describe('GET /metrics in production', () => {
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: '3f9c1a7e5b2d8064c1e97a3b5d2f8e60a4c7b1d9e3f5a2c8b6d0e4f1a7c3b9d5',
    ENCRYPTION_KEY: '8e2b4d6f1a3c5e7092b4d6f8a1c3e5f7b9d2f4a6c8e0b3d5f7a9c1e4b6d8f0a2',
    HEALTH_CHECK_SCHEDULER: 'off',
  };
  let withoutToken: TestApp;
  let withToken: TestApp;
  beforeAll(async () => {
    [withoutToken, withToken] = await Promise.all([
      createTestApp(production),
      createTestApp({ ...production, METRICS_TOKEN: 'metrics-token-for-tests' }),
    ]);
  });
  afterAll(async () => Promise.all([withoutToken?.close(), withToken?.close()]));

  it('answers 404, as an unknown path, without METRICS_TOKEN, even on loopback', async () => {
    const response = await withoutToken.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
    expect(response.body).not.toContain('conductor_');
  });

  it('needs the token on loopback too: a reverse proxy on the same host may relay anyone without forwarding headers', async () => {
    const local = await withToken.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(403);
    const wrong = await withToken.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(403);
    const scraped = await withToken.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer metrics-token-for-tests' },
    });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('conductor_http_requests_total');
  });
});
