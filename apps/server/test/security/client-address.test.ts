import { afterEach, describe, expect, it } from 'vitest';
import { WAITLIST_RATE_LIMIT } from '../../src/modules/waitlist/waitlist.routes.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

/**
 * The client address behind a load balancer (TRUST_PROXY): per-IP limits and the sessions list
 * see the address the trusted proxy forwards, and nobody else can choose it.
 */
let harness: TestApp | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

let sequence = 0;
const joinWaitlist = (app: TestApp['app'], remoteAddress: string, forwardedFor?: string) => {
  sequence += 1;
  return app.inject({
    method: 'POST',
    url: '/v1/waitlist',
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { email: `visitor-${sequence}@example.com`, source: 'footer' },
  });
};

/** Spends one address's whole waitlist allowance; every request must have been accepted. */
async function exhaust(app: TestApp['app'], remoteAddress: string, forwardedFor?: string): Promise<void> {
  for (let index = 0; index < WAITLIST_RATE_LIMIT.points; index += 1) {
    expect((await joinWaitlist(app, remoteAddress, forwardedFor)).statusCode).toBe(201);
  }
}

describe('client address', () => {
  it('is the socket address by default: X-Forwarded-For cannot dodge a per-IP limit', async () => {
    harness = await createTestApp();
    await exhaust(harness.app, '198.51.100.10', '203.0.113.1');
    const spoofed = await joinWaitlist(harness.app, '198.51.100.10', '203.0.113.2');
    expect(spoofed.statusCode).toBe(429);
    expect(spoofed.headers['retry-after']).toBeDefined();
  });

  it('with TRUST_PROXY set is the address the load balancer forwards, so clients behind it are limited apart', async () => {
    harness = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    await exhaust(harness.app, '10.0.0.2', '203.0.113.1');
    expect((await joinWaitlist(harness.app, '10.0.0.2', '203.0.113.1')).statusCode).toBe(429);
    // Another client through the same balancer keeps its own allowance.
    expect((await joinWaitlist(harness.app, '10.0.0.2', '203.0.113.2')).statusCode).toBe(201);
    // A client that sends its own X-Forwarded-For is still known by the entry the balancer appended.
    expect((await joinWaitlist(harness.app, '10.0.0.2', '192.0.2.77, 203.0.113.1')).statusCode).toBe(429);
    // A peer outside the trusted range is limited by its own address, whatever it claims.
    await exhaust(harness.app, '198.51.100.20', '203.0.113.5');
    expect((await joinWaitlist(harness.app, '198.51.100.20', '203.0.113.6')).statusCode).toBe(429);
    expect((await joinWaitlist(harness.app, '10.1.2.3', '203.0.113.6')).statusCode).toBe(201);
  });

  it('is what the sessions list shows for a sign-in through the proxy', async () => {
    harness = await createTestApp({ TRUST_PROXY: 'loopback,10.0.0.0/8' });
    const registered = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '203.0.113.9' },
      payload: { name: 'Ada Lovelace', email: 'ada.proxy@example.com', password: 'Harbour-Lantern-42' },
    });
    expect(registered.statusCode).toBe(201);
    const setCookie = registered.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0] ?? '';
    const sessions = await harness.app.inject({ method: 'GET', url: '/api/v1/settings/sessions', headers: { cookie } });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.json().sessions.map((session: { ip: string | null }) => session.ip)).toEqual(['203.0.113.9']);
  });
});
