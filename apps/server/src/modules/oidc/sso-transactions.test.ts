import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { createSsoTransactionStore, type SsoTransaction } from './sso-transactions.ts';
import { Browser, browserSecrets } from './test-support/sso-flow.ts';

const transaction: SsoTransaction = {
  provider: 'demo',
  state: 's'.repeat(43),
  nonce: 'n'.repeat(43),
  codeChallenge: 'c'.repeat(43),
  redirectUri: 'http://127.0.0.1:8080/auth/callback',
};

/** A whole Demo OIDC sign-in through the app, as a browser makes it. */
async function expectDemoSignIn(harness: TestApp): Promise<void> {
  const browser = new Browser(harness.app);
  const secrets = browserSecrets();
  const start = await browser.start('demo', secrets);
  const callbackUrl = await browser.consentAtDemoIssuer(start.json().authorizationUrl);
  const response = await browser.callback('demo', callbackUrl.searchParams.get('code') ?? '', secrets);
  expect(response.statusCode).toBe(200);
  expect(await browser.signedIn()).toBe(true);
}

describe.each([
  ['the database', {}],
  ['Redis', { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' }],
])('sign-on transactions in %s', (_name, overrides) => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp(overrides);
  });
  afterAll(async () => harness.close());

  it('are read once', async () => {
    const { database, redis, clock } = harness.app.context;
    const store = createSsoTransactionStore({ db: database.db, redis, redisPrefix: 'test:', clock });
    const id = randomUUID();
    await store.put(id, transaction);
    expect(await store.take(id)).toEqual(transaction);
    expect(await store.take(id)).toBeUndefined();
  });

  it('expire after ten minutes', async () => {
    const { database, redis } = harness.app.context;
    let now = Date.now();
    const store = createSsoTransactionStore({ db: database.db, redis, redisPrefix: 'test:', clock: { now: () => now } });
    const id = randomUUID();
    await store.put(id, transaction);
    if (redis) expect(await redis.ttl(`test:sso:tx:${id}`)).toBeGreaterThan(590);
    else {
      now += 10 * 60 * 1000 + 1;
      expect(await store.take(id)).toBeUndefined();
    }
  });

  it('carry a whole Demo OIDC sign-in', async () => {
    await expectDemoSignIn(harness);
  });
});

describe('sign-on transactions in Redis and the database at once', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
  });
  afterAll(async () => harness.close());

  it('are still read once (a Redis write that timed out may land after the table took the transaction)', async () => {
    const { database, redis, clock } = harness.app.context;
    const store = createSsoTransactionStore({ db: database.db, redis, redisPrefix: 'test:', clock });
    const tableOnly = createSsoTransactionStore({ db: database.db, redis: null, redisPrefix: 'test:', clock });
    const id = randomUUID();
    await store.put(id, transaction);
    await tableOnly.put(id, transaction);
    expect(await store.take(id)).toEqual(transaction);
    expect(await store.take(id)).toBeUndefined();
    expect(await tableOnly.take(id)).toBeUndefined();
  });
});

describe('sign-on transactions with Redis configured but unreachable', () => {
  let harness: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    harness = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => harness.close());

  it('are kept in the database instead, and still read once', async () => {
    const { database, redis, clock } = harness.app.context;
    expect(redis?.status).not.toBe('ready');
    const store = createSsoTransactionStore({ db: database.db, redis, redisPrefix: 'test:', clock });
    const id = randomUUID();
    await store.put(id, transaction);
    expect(await store.take(id)).toEqual(transaction);
    expect(await store.take(id)).toBeUndefined();
  });

  it('carry a whole Demo OIDC sign-in', async () => {
    await expectDemoSignIn(harness);
  });
});
