import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { AppError } from '../../lib/errors.ts';
import { createLoginThrottle, LOGIN_LIMITS } from './login-throttle.ts';
import { SESSION_COOKIE } from './session.service.ts';

/**
 * The sign-in throttle under concurrency: a failure point is taken before the password is
 * checked, so guesses sent at once are limited like guesses sent one after another; and an IPv6
 * client is one client across its /64. Run against the in-memory store and against Redis (shared
 * by two instances), whose counters outlive a run: every test uses fresh addresses and accounts.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'Harbour-Lantern-42';
const THROTTLED = /^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/;

let sequence = 0;
const uniqueEmail = () => {
  sequence += 1;
  return `throttle-${Date.now().toString(36)}-${randomInt(1e9).toString(36)}-${sequence}@example.com`;
};
const ipv4 = () => `10.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
const group = () => randomInt(0x10000).toString(16);
/** The first four groups of a random IPv6 /64; append four more for an address in it. */
const ipv6Network = () => `2001:db8:${group()}:${group()}`;
const inNetwork = (network: string, host: number) => `${network}:${group()}:${group()}:${group()}:${host.toString(16)}`;

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;
const statuses = (responses: Response[]) => responses.map((response) => response.statusCode);
const count = (responses: Response[], status: number) => statuses(responses).filter((code) => code === status).length;

function sessionCookie(response: Response): string | undefined {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  return lines.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

function expectThrottled(response: Response) {
  expect(response.statusCode).toBe(429);
  expect(response.json().error.message).toMatch(THROTTLED);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(sessionCookie(response)).toBeUndefined();
}

describe.each([
  ['in memory', {}],
  ['in Redis', { REDIS_URL }],
])('sign-in throttle %s', (_store, overrides: Record<string, string>) => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp(overrides);
  });
  afterAll(async () => harness.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress });
  const guesses = (email: string, times: number, remoteAddress: string) =>
    Promise.all(Array.from({ length: times }, (_, index) => login(email, `Wrong-guess-${index}`, remoteAddress)));
  async function registered(): Promise<string> {
    const email = uniqueEmail();
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { name: 'Target', email, password: PASSWORD },
      remoteAddress: ipv4(),
    });
    expect(response.statusCode).toBe(201);
    return email;
  }

  it('lets only the allowed number of concurrent guesses at one account from one address reach the password check', async () => {
    const email = await registered();
    const address = ipv4();
    const first = await guesses(email, 50, address);
    expect(count(first, 401)).toBe(LOGIN_LIMITS.accountIpFailures.points);
    expect(count(first, 429)).toBe(50 - LOGIN_LIMITS.accountIpFailures.points);
    for (const response of first.filter((each) => each.statusCode === 429)) expectThrottled(response);

    // The right password, sent among more guesses once the limit is reached, does not get through.
    const [right, ...more] = await Promise.all([
      login(email, PASSWORD, address),
      ...Array.from({ length: 20 }, (_, index) => login(email, `More-guesses-${index}`, address)),
    ]);
    expectThrottled(right as Response);
    expect(statuses(more)).toEqual(new Array(20).fill(429));

    // The owner, elsewhere, still signs in.
    expect((await login(email, PASSWORD, ipv4())).statusCode).toBe(200);
  });

  it('caps concurrent failures from one address across accounts (credential stuffing)', async () => {
    const address = ipv4();
    const responses = await Promise.all(Array.from({ length: 50 }, () => login(uniqueEmail(), 'Whatever-123', address)));
    expect(count(responses, 401)).toBe(LOGIN_LIMITS.ipFailures.points);
    expect(count(responses, 429)).toBe(50 - LOGIN_LIMITS.ipFailures.points);
  });

  it('counts every address of one IPv6 /64 as one client for an account', async () => {
    const email = await registered();
    const network = ipv6Network();
    for (let host = 1; host <= 40; host += 1) {
      const response = await login(email, `Wrong-guess-${host}`, inNetwork(network, host));
      if (host <= LOGIN_LIMITS.accountIpFailures.points) expect(response.statusCode, `guess ${host}`).toBe(401);
      else expectThrottled(response);
    }
    expectThrottled(await login(email, PASSWORD, inNetwork(network, 41)));
    // Another /64 is another client.
    expect((await login(email, PASSWORD, `${ipv6Network()}::1`)).statusCode).toBe(200);
  });

  it('counts every address of one IPv6 /64 as one client across accounts', async () => {
    const network = ipv6Network();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, host) => login(uniqueEmail(), 'Whatever-123', inNetwork(network, host + 1))),
    );
    expect(count(responses, 401)).toBe(LOGIN_LIMITS.ipFailures.points);
    expect(count(responses, 429)).toBe(40 - LOGIN_LIMITS.ipFailures.points);
  });

  it("does not count a successful sign-in among the address's failures", async () => {
    const address = ipv4();
    const emails = await Promise.all([registered(), registered()]);
    for (const email of emails) expect((await login(email, PASSWORD, address)).statusCode).toBe(200);
    const failures = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.ipFailures.points }, () => login(uniqueEmail(), 'Whatever-123', address)),
    );
    expect(statuses(failures)).toEqual(new Array(LOGIN_LIMITS.ipFailures.points).fill(401));
    expectThrottled(await login(uniqueEmail(), 'Whatever-123', address));
  });
});

describe('sign-in throttle shared by two instances through Redis', () => {
  let instances: TestApp[];
  beforeAll(async () => {
    instances = await Promise.all([createTestApp({ REDIS_URL }), createTestApp({ REDIS_URL })]);
  });
  afterAll(async () => Promise.all(instances.map((instance) => instance.close())));

  it('lets only the allowed number of concurrent guesses through, whichever instance they reach', async () => {
    // Both instances connected first: one that is not yet (a loaded host can take more than the
    // start-up wait) counts in its own process by design, which is not what this test is about.
    await expect
      .poll(() => instances.map((instance) => instance.app.context.redis?.status), { timeout: 10_000 })
      .toEqual(['ready', 'ready']);
    const email = uniqueEmail();
    const address = ipv4();
    // A dozen at once: enough to race, few enough that no Redis answer waits out its timeout on a
    // busy 2-core host (a timed-out command also falls back to counting in the process).
    const guesses = 12;
    const responses = await Promise.all(
      Array.from({ length: guesses }, (_, index) =>
        instances[index % 2]!.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email, password: `Wrong-guess-${index}` },
          remoteAddress: address,
        }),
      ),
    );
    expect(count(responses, 401)).toBe(LOGIN_LIMITS.accountIpFailures.points);
    expect(count(responses, 429)).toBe(guesses - LOGIN_LIMITS.accountIpFailures.points);
  });

  it('does not count an attempt refused for its address against the account', async () => {
    const [first] = instances;
    const redis = first!.app.context.redis!;
    const address = ipv4();
    const email = uniqueEmail();
    const failures = await Promise.all(
      Array.from({ length: LOGIN_LIMITS.ipFailures.points }, () =>
        first!.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: uniqueEmail(), password: 'Whatever-123' },
          remoteAddress: address,
        }),
      ),
    );
    expect(count(failures, 401)).toBe(LOGIN_LIMITS.ipFailures.points);
    const refused = await first!.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: PASSWORD },
      remoteAddress: address,
    });
    expectThrottled(refused);
    expect(Number(await redis.get(`${first!.app.context.env.GATEWAY_REDIS_PREFIX}rl:auth:login-account-ip:${email}|${address}`))).toBe(0);
  });
});

describe('createLoginThrottle', () => {
  it('takes a point per attempt and gives it back when the password could not be checked', async () => {
    const throttle = createLoginThrottle(null, 'test:');
    const email = uniqueEmail();
    for (let attempt = 0; attempt < 10; attempt += 1) await (await throttle.reserve(email, '192.0.2.1')).release();
    for (let attempt = 0; attempt < LOGIN_LIMITS.accountIpFailures.points; attempt += 1) await throttle.reserve(email, '192.0.2.1');
    const refused = await throttle.reserve(email, '192.0.2.1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 429, message: 'Too many sign-in attempts. Please wait 15 minutes and try again.' });
    expect((refused as AppError).retryAfterSeconds).toBeGreaterThan(14 * 60);
  });
});
