import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { createAccountWithKey } from '../../../test/gateway/gateway-helpers.ts';
import { revokeApiKey } from '../../modules/api-keys/api-keys.service.ts';
import { invalidateAccountCache } from '../gateway.plugin.ts';
import { users } from '../../db/schema/index.ts';
import { eq } from 'drizzle-orm';

// A gate on the cache-miss lookup: the database has been read (before the portal's action),
// but the answer arrives only when the test opens the gate (after the portal's action returned).
const gate = vi.hoisted(() => ({
  held: null as Promise<void> | null,
  open: () => {},
  read: () => {},
  calls: 0,
}));

vi.mock('./principal.repository.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./principal.repository.ts')>();
  return {
    ...actual,
    findKeyWithAccount: async (...args: Parameters<typeof actual.findKeyWithAccount>) => {
      gate.calls += 1;
      const found = await actual.findKeyWithAccount(...args);
      if (gate.held) {
        gate.read();
        await gate.held;
      }
      return found;
    },
  };
});

function hold(): Promise<void> {
  const read = new Promise<void>((resolve) => (gate.read = resolve));
  gate.held = new Promise<void>((resolve) => (gate.open = resolve));
  return read;
}

function release(): void {
  gate.open();
  gate.held = null;
}

const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };

describe('key cache: an invalidation also detaches lookups in flight', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const post = (key: string) =>
    t.app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, payload: body });

  it('a request made after the portal revoked the key is refused (even while an older lookup is in flight)', async () => {
    const { userId, key, keyId } = await createAccountWithKey(t.app, 'pro', { environment: 'test' });
    const authenticator = t.app.gateway.authenticator;
    const read = hold();
    const before = post(key); // started before the revocation: may be served
    await read; // its lookup has read the key as active
    await revokeApiKey(
      t.app.context.database.db,
      { user: { id: userId, isDemo: false }, session: { tokenHash: 'unused', expiresAt: new Date(0) } },
      keyId,
      Date.now(),
    ); // the portal's DELETE returned
    const callsBefore = gate.calls;
    // Asked for synchronously after the revocation returned, while the older lookup is still held:
    // it must start a lookup of its own rather than join the one that read the key as active.
    const after = Promise.resolve().then(() => authenticator.authenticateCached(`Bearer ${key}`));
    after.catch(() => undefined); // its refusal is checked below, after the held lookup ends
    const newLookups = await new Promise<number>((resolve) => setImmediate(() => resolve(gate.calls - callsBefore)));
    release();
    await before;
    expect(newLookups).toBe(1);
    await expect(after).rejects.toMatchObject({ status: 401 });
    // And through HTTP, as a client sees it.
    expect((await post(key)).statusCode).toBe(401);
  });

  it('an account change (plan downgrade) is seen by a lookup requested after invalidateAccountCache', async () => {
    const { userId, key } = await createAccountWithKey(t.app, 'pro', { environment: 'live' });
    const authenticator = t.app.gateway.authenticator;
    const read = hold();
    const before = authenticator.authenticateCached(`Bearer ${key}`);
    await read;
    await t.app.context.database.db.update(users).set({ plan: 'free' }).where(eq(users.id, userId));
    invalidateAccountCache(userId); // what changePlan / removeProviderKey do after commit
    const after = authenticator.authenticateCached(`Bearer ${key}`);
    release();
    await before;
    expect((await after).plan).toBe('free');
  });
});
