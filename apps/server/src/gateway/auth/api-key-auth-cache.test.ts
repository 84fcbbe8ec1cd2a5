import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../../../test/gateway/gateway-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { ApiKeyAuthenticator } from './api-key-auth.ts';

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
});
