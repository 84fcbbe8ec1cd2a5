import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../../../test/gateway/gateway-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { ApiKeyAuthenticator } from './api-key-auth.ts';
import { KeyLookupGuard } from './key-lookup-guard.ts';

describe('key cache when full', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('evicts the keys cached longest ago, not every key: a key in use stays cached through a flood of unknown keys', async () => {
    const { key } = await createAccountWithKey(t.app, 'pro', { environment: 'live' });
    const clock = { now: 0 };
    const authenticator = new ApiKeyAuthenticator({
      db: t.app.context.database.db,
      encryptionKey: t.app.context.secrets.encryptionKey,
      log: t.app.log,
      now: () => clock.now,
      ttlMs: 1_000,
      maxEntries: 5,
    });
    try {
      const bearer = `Bearer ${key}`;
      const unknown = async () => {
        const attempt = Promise.resolve(authenticator.authenticateCached(`Bearer cc_live_sk_${randomBytes(24).toString('hex')}`));
        await expect(attempt).rejects.toMatchObject({ status: 401 });
      };
      await authenticator.authenticateCached(bearer);
      clock.now = 500;
      for (let index = 0; index < 3; index += 1) await unknown();
      // The key's entry expires and is loaded again: it is now the most recently cached.
      clock.now = 1_500;
      expect(authenticator.authenticateCached(bearer)).toBeInstanceOf(Promise);
      await authenticator.authenticateCached(bearer);
      // Three more unknown keys fill the cache past its five entries.
      for (let index = 0; index < 3; index += 1) await unknown();
      clock.now = 1_600;
      // Still cached: answered at once, without a lookup (a promise would mean a database read).
      const answer = authenticator.authenticateCached(bearer);
      expect(answer).not.toBeInstanceOf(Promise);
      expect(answer).toMatchObject({ plan: 'pro' });
    } finally {
      authenticator.close();
    }
  });

  it('keeps serving a key in use at an address flooded with bad keys after its account changed', async () => {
    const { key, userId } = await createAccountWithKey(t.app, 'pro', { environment: 'live' });
    const guard = new KeyLookupGuard({
      redis: null,
      redisPrefix: `test-${randomBytes(4).toString('hex')}:`,
      log: t.app.log,
      failuresPerMinute: 2,
    });
    const authenticator = new ApiKeyAuthenticator({
      db: t.app.context.database.db,
      encryptionKey: t.app.context.secrets.encryptionKey,
      log: t.app.log,
      now: () => 0,
      guard,
    });
    const client = { ip: '198.51.100.9' };
    try {
      await authenticator.authenticateCached(`Bearer ${key}`, client);
      // Three different unknown keys from the same address spend its lookups for the minute.
      const outcomes: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        await Promise.resolve(authenticator.authenticateCached(`Bearer cc_live_sk_${randomBytes(24).toString('hex')}`, client)).catch(
          (error: { status: number }) => outcomes.push(error.status),
        );
      }
      expect(outcomes).toEqual([401, 401, 429]);
      // A plan or provider-key change drops the account's cached keys; the one in use is looked up again, unguarded.
      authenticator.forgetAccount(userId);
      const reloaded = authenticator.authenticateCached(`Bearer ${key}`, client);
      expect(reloaded).toBeInstanceOf(Promise);
      await expect(reloaded).resolves.toMatchObject({ userId, plan: 'pro' });
      // A key never seen to work is still held back at that address.
      await expect(
        Promise.resolve(authenticator.authenticateCached(`Bearer cc_live_sk_${randomBytes(24).toString('hex')}`, client)),
      ).rejects.toMatchObject({ status: 429, code: 'too_many_invalid_keys' });
    } finally {
      authenticator.close();
    }
  });
});
