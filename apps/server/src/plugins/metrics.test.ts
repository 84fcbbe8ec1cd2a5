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
});
