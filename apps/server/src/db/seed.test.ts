import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '@conductor/shared';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { createApiKey } from '../modules/api-keys/api-keys.service.ts';
import { settableClock } from '../modules/portal/portal-testing.ts';
import { upsertProviderKey } from '../modules/provider-keys/provider-keys.repository.ts';
import { findUserByEmail } from '../modules/users/users.repository.ts';
import { syncDemoAccount } from './seed.ts';
import {
  apiKeys,
  invoices,
  passwordResets,
  providerKeys,
  sessions,
  subscriptions,
  usageDaily,
  usageEvents,
  users,
} from './schema/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const clock = settableClock('2026-03-15T12:00:00.000Z');

describe('demo account seed', () => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await createTestApp({ DEMO_ACCOUNT: 'on' }, { clock });
  });
  afterAll(async () => harness.close());

  const db = () => harness.app.context.database.db;

  it('creates the demo account of the login page with a pro subscription, invoices and keys', async () => {
    const demo = await findUserByEmail(db(), DEMO_CREDENTIALS.email);
    expect(demo).toMatchObject({
      name: 'Demo User',
      plan: 'pro',
      verified: true,
      authMethod: 'email',
      onboardingCompleted: true,
      isDemo: true,
    });
    expect(await verifyPassword(demo!.passwordHash!, DEMO_CREDENTIALS.password)).toBe(true);
    const [subscription] = await db().select().from(subscriptions).where(eq(subscriptions.userId, demo!.id));
    expect(subscription).toMatchObject({ plan: 'pro', period: 'monthly', cancelAtPeriodEnd: false });
    const history = await db().select().from(invoices).where(eq(invoices.userId, demo!.id));
    expect(history.length).toBeGreaterThanOrEqual(3);
    expect(history.every((invoice) => invoice.status === 'paid' && invoice.amountCents === 2900)).toBe(true);
    const keys = await db().select().from(apiKeys).where(eq(apiKeys.userId, demo!.id));
    expect(keys.map((key) => key.environment).sort()).toEqual(['live', 'test']);
  });

  it('generates about 90 days of plausible usage, folded into the rollup', async () => {
    const demo = await findUserByEmail(db(), DEMO_CREDENTIALS.email);
    const [stats] = await db()
      .select({
        events: count(),
        first: sql<string>`min(${usageEvents.createdAt})`,
        last: sql<string>`max(${usageEvents.createdAt})`,
        models: sql<string>`count(distinct ${usageEvents.model})`,
        errors: sql<string>`count(*) filter (where ${usageEvents.statusCode} >= 400)`,
      })
      .from(usageEvents)
      .where(eq(usageEvents.userId, demo!.id));
    expect(stats!.events).toBeGreaterThan(2_000);
    expect(Number(stats!.models)).toBeGreaterThanOrEqual(5);
    expect(Number(stats!.errors)).toBeGreaterThan(0);
    expect(Number(stats!.errors) / stats!.events).toBeLessThan(0.05);
    expect(clock.now() - new Date(stats!.first).getTime()).toBeGreaterThan(89 * DAY_MS);
    expect(clock.now() - new Date(stats!.first).getTime()).toBeLessThanOrEqual(90 * DAY_MS);
    expect(new Date(stats!.last).getTime()).toBeLessThanOrEqual(clock.now());
    const [rollup] = await db()
      .select({ requests: sql<string>`sum(${usageDaily.requests})` })
      .from(usageDaily)
      .where(eq(usageDaily.userId, demo!.id));
    expect(Number(rollup!.requests)).toBe(stats!.events);
  });

  it('tops the history up on a later start without duplicating it', async () => {
    const demo = await findUserByEmail(db(), DEMO_CREDENTIALS.email);
    const before = await db().select({ value: count() }).from(usageEvents).where(eq(usageEvents.userId, demo!.id));
    await syncDemoAccount(harness.app.context, harness.app.log);
    const same = await db().select({ value: count() }).from(usageEvents).where(eq(usageEvents.userId, demo!.id));
    expect(same[0]!.value).toBe(before[0]!.value);

    clock.advance(2 * DAY_MS);
    await syncDemoAccount(harness.app.context, harness.app.log);
    const [after] = await db()
      .select({ value: count(), distinct: sql<string>`count(distinct ${usageEvents.requestId})` })
      .from(usageEvents)
      .where(eq(usageEvents.userId, demo!.id));
    expect(after!.value).toBeGreaterThan(before[0]!.value);
    expect(Number(after!.distinct)).toBe(after!.value);
  });

  it('puts back the published e-mail, name and password on the next start, and drops what visitors must not leave', async () => {
    const demo = (await findUserByEmail(db(), DEMO_CREDENTIALS.email))!;
    const context = harness.app.context;
    // As a visitor could before the guardrails (or an operator by hand): everything the demo refuses now.
    await db()
      .update(users)
      .set({ email: 'taken-over@example.com', name: 'Defaced', passwordHash: await hashPassword('Hijacked-Passw0rd-1') })
      .where(eq(users.id, demo.id));
    await upsertProviderKey(db(), context.secrets.encryptionKey, demo.id, 'openai', 'sk-visitorsOwnKey0001', clock.now());
    const live = await createApiKey(db(), demo.id, { name: 'Visitor live', environment: 'live', permissions: ['api'] }, clock.now());
    // A test key from before keys belonged to sessions, one of a session still signed in, one of a session gone.
    const unowned = await createApiKey(db(), demo.id, { name: 'Visitor test', environment: 'test', permissions: ['api'] }, clock.now());
    const session = (tokenHash: string, expiresAt: number, lastSeenAt = clock.now()) => ({
      tokenHash,
      userId: demo.id,
      expiresAt: new Date(expiresAt),
      createdAt: new Date(clock.now()),
      lastSeenAt: new Date(lastSeenAt),
    });
    await db()
      .insert(sessions)
      .values([
        session('signed-in-visitor', clock.now() + DAY_MS),
        session('expired-visitor', clock.now() - 1),
        session('idle-visitor', clock.now() + DAY_MS, clock.now() - 9 * 60 * 60 * 1000),
      ]);
    const signedIn = await createApiKey(db(), demo.id, { name: 'Signed in', environment: 'test', permissions: ['api'] }, clock.now(), {
      tokenHash: 'signed-in-visitor',
      expiresAt: new Date(clock.now() + DAY_MS),
    });
    const gone = await createApiKey(db(), demo.id, { name: 'Gone', environment: 'test', permissions: ['api'] }, clock.now(), {
      tokenHash: 'expired-visitor',
      expiresAt: new Date(clock.now() + DAY_MS),
    });
    // Idle longer than a browser session may be: it no longer signs anyone in.
    const idle = await createApiKey(db(), demo.id, { name: 'Idle', environment: 'test', permissions: ['api'] }, clock.now(), {
      tokenHash: 'idle-visitor',
      expiresAt: new Date(clock.now() + DAY_MS),
    });
    // The sample keys renamed and revoked (as a visitor could before they were locked), and a routing default set.
    await db()
      .update(apiKeys)
      .set({ name: 'Defaced key', revokedAt: new Date(clock.now()) })
      .where(and(eq(apiKeys.userId, demo.id), inArray(apiKeys.name, ['Production', 'Staging'])));
    await db()
      .update(users)
      .set({ routingPolicy: { strategy: 'cost' } })
      .where(eq(users.id, demo.id));
    await db()
      .insert(passwordResets)
      .values({ tokenHash: 'visitor-reset', userId: demo.id, expiresAt: new Date(clock.now() + DAY_MS), createdAt: new Date(clock.now()) });

    await syncDemoAccount(context, harness.app.log);

    const restored = await findUserByEmail(db(), DEMO_CREDENTIALS.email);
    expect(restored).toMatchObject({ id: demo.id, name: DEMO_CREDENTIALS.name, verified: true, isDemo: true });
    expect(await verifyPassword(restored!.passwordHash!, DEMO_CREDENTIALS.password)).toBe(true);
    expect(await db().select().from(users).where(eq(users.isDemo, true))).toHaveLength(1);
    expect(await db().select().from(providerKeys).where(eq(providerKeys.userId, demo.id))).toEqual([]);
    const [reset] = await db().select().from(passwordResets).where(eq(passwordResets.tokenHash, 'visitor-reset'));
    expect(reset?.usedAt).not.toBeNull();
    const keys = await db().select().from(apiKeys).where(eq(apiKeys.userId, demo.id));
    const byId = new Map(keys.map((key) => [key.id, key]));
    expect(byId.get(live.apiKey.id)?.revokedAt).not.toBeNull();
    expect(byId.get(unowned.apiKey.id)?.revokedAt).not.toBeNull();
    expect(byId.get(gone.apiKey.id)?.revokedAt).not.toBeNull();
    expect(byId.get(idle.apiKey.id)?.revokedAt).not.toBeNull();
    // A key from before keys had a session is no longer anonymous: it is never listed as a sample.
    expect(byId.get(unowned.apiKey.id)?.createdSession).toBe('retired');
    // Only the key of a session still signed in stays, with the seeded sample keys (their secrets never shown) as seeded.
    expect(byId.get(signedIn.apiKey.id)?.revokedAt).toBeNull();
    const active = keys.filter((key) => key.revokedAt === null);
    expect(active.map((key) => key.name).sort()).toEqual(['Production', 'Signed in', 'Staging']);
    expect(restored?.routingPolicy).toBeNull();
  });

  it('removes the demo account when DEMO_ACCOUNT=off', async () => {
    const demoId = (await findUserByEmail(db(), DEMO_CREDENTIALS.email))?.id ?? '';
    expect((await db().select().from(invoices).where(eq(invoices.userId, demoId))).length).toBeGreaterThan(0);
    const invoiceCount = async () => (await db().select().from(invoices)).length;
    const others = (await invoiceCount()) - (await db().select().from(invoices).where(eq(invoices.userId, demoId))).length;
    await syncDemoAccount({ ...harness.app.context, env: { ...harness.app.context.env, DEMO_ACCOUNT: 'off' } }, harness.app.log);
    expect(await findUserByEmail(db(), DEMO_CREDENTIALS.email)).toBeUndefined();
    expect(await db().select().from(users).where(eq(users.isDemo, true))).toEqual([]);
    // Its sample invoices go with it: not kept as a deleted account's are.
    expect(await invoiceCount()).toBe(others);
  });
});
