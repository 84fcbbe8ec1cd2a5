import { randomUUID } from 'node:crypto';
import { DEMO_CREDENTIALS, type KeyEnvironment, planById } from '@conductor/shared';
import { and, eq, exists, gt, inArray, isNotNull, isNull, lt, max, not, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { invalidateAccountCache } from '../gateway/gateway.plugin.ts';
import { hashPassword, verifyPassword } from '../lib/password.ts';
import { generateApiKey } from '../modules/api-keys/api-key.ts';
import { insertApiKey } from '../modules/api-keys/api-keys.repository.ts';
import { forgetRevokedKeys } from '../modules/api-keys/revocation.ts';
import { retirePasswordResets } from '../modules/auth/accounts.repository.ts';
import { SESSION_POLICY } from '../modules/auth/session.service.ts';
import { billingDay, calendarMonth } from '../modules/billing/billing-math.ts';
import { insertInvoice, saveSubscription } from '../modules/billing/billing.repository.ts';
import { invoiceNumber } from '../modules/billing/billing.service.ts';
import { generateDemoEvents } from '../modules/usage/demo-history.ts';
import { recordUsageEvents } from '../modules/usage/usage.writer.ts';
import { deleteAllProviderKeys } from '../modules/provider-keys/provider-keys.repository.ts';
import { deleteUsers, findUserByEmail, insertUser, type UserRow } from '../modules/users/users.repository.ts';
import type { Database } from './client.ts';
import { apiKeys, invoices, sessions, usageEvents, users } from './schema/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Arbitrary constant: one instance seeds at a time. */
const SEED_LOCK_ID = 7_316_002;
const PAST_INVOICES = 4;
const DEMO_KEY_NAMES: Record<KeyEnvironment, string> = { live: 'Production', test: 'Staging' };
/** `created_session` of a demo key from before keys had one: no session's, and not a sample. */
const RETIRED_SESSION = 'retired';

/**
 * The demo account of the login page's demo box (decisions §2): created on first start with
 * about 90 days of usage, topped up to "now" on later starts; DEMO_ACCOUNT=off removes it.
 * Every start also puts back what the login page publishes (see `restoreDemoAccount`).
 */
export async function syncDemoAccount(context: Pick<AppContext, 'env' | 'database' | 'clock'>, log: FastifyBaseLogger): Promise<void> {
  const { db } = context.database;
  if (context.env.DEMO_ACCOUNT === 'off') {
    // Its invoices are samples, not a billing record: they go with it (a real account's outlive it).
    await db.delete(invoices).where(inArray(invoices.userId, db.select({ id: users.id }).from(users).where(eq(users.isDemo, true))));
    await deleteUsers(db, eq(users.isDemo, true));
    return;
  }
  const now = context.clock.now();
  const restored = await db.transaction(async (tx) => {
    const scoped = tx as unknown as Database;
    await scoped.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    const holder = await findUserByEmail(scoped, DEMO_CREDENTIALS.email);
    if (holder && !holder.isDemo) {
      log.warn('a non-demo account uses the demo e-mail; demo seeding skipped');
      return null;
    }
    // Found by its flag too: should its e-mail ever have been changed, it is restored, not seeded twice.
    const existing = holder ?? (await findDemoUser(scoped));
    const userId = existing?.id ?? (await createDemoUser(scoped, await hashPassword(DEMO_CREDENTIALS.password), now));
    const keys = await demoKeyIds(scoped, userId);
    const revokedKeyHashes = existing ? await restoreDemoAccount(scoped, existing, keys, now, log) : [];
    const [latest] = await scoped
      .select({ at: max(usageEvents.createdAt) })
      .from(usageEvents)
      .where(eq(usageEvents.userId, userId));
    const events = generateDemoEvents(userId, keys, latest?.at ? latest.at.getTime() : 0, now);
    await recordUsageEvents(scoped, events);
    for (const [environment, id] of Object.entries(keys)) {
      const last = events.findLast((event) => event.environment === environment);
      if (last) await scoped.update(apiKeys).set({ lastUsedAt: last.createdAt }).where(eq(apiKeys.id, id));
    }
    if (events.length > 0) log.info({ events: events.length }, 'demo account usage history updated');
    return { userId, revokedKeyHashes };
  });
  // Once committed: gateway caches (on every instance) may hold a revoked key or the account's provider keys.
  if (restored) {
    forgetRevokedKeys(restored.revokedKeyHashes);
    invalidateAccountCache(restored.userId);
  }
}

async function findDemoUser(db: Database): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.isDemo, true)).orderBy(users.createdAt).limit(1);
  return row;
}

/**
 * Puts the shared demo account back as the login page publishes it, whatever a visitor did
 * before its guardrails existed (or an operator did by hand): its e-mail, name, password and
 * routing default (none), no outstanding reset link, no provider key of a visitor's (the gateway
 * would prefer it for everyone), its two sample keys as seeded, no other live key, and no test key
 * but those of sessions still signed in. Returns the hashes of the keys it revoked.
 */
async function restoreDemoAccount(
  db: Database,
  demo: UserRow,
  samples: DemoKeyIds,
  now: number,
  log: FastifyBaseLogger,
): Promise<string[]> {
  const passwordKept = demo.passwordHash !== null && (await verifyPassword(demo.passwordHash, DEMO_CREDENTIALS.password));
  const identityKept = demo.email === DEMO_CREDENTIALS.email && demo.name === DEMO_CREDENTIALS.name && demo.verified;
  if (!passwordKept || !identityKept || demo.routingPolicy !== null) {
    await db
      .update(users)
      .set({
        email: DEMO_CREDENTIALS.email,
        name: DEMO_CREDENTIALS.name,
        verified: true,
        routingPolicy: null,
        ...(passwordKept ? {} : { passwordHash: await hashPassword(DEMO_CREDENTIALS.password) }),
        updatedAt: new Date(now),
      })
      .where(eq(users.id, demo.id));
    if (!passwordKept || !identityKept) {
      log.warn({ password: !passwordKept, identity: !identityKept }, 'demo account restored to its published credentials');
    }
  }
  await retirePasswordResets(db, demo.id, now);
  await deleteAllProviderKeys(db, demo.id);
  for (const [environment, id] of Object.entries(samples)) {
    await db
      .update(apiKeys)
      .set({ name: DEMO_KEY_NAMES[environment as KeyEnvironment], revokedAt: null, expiresAt: null, createdSession: null })
      .where(eq(apiKeys.id, id));
  }
  return retireDemoVisitorKeys(db, demo.id, samples, now);
}

/**
 * Revokes the demo account's keys that no visitor holds any more: every live key but the sample,
 * and every test key whose session ended (signed out, expired, or idle past its limit), all
 * keys without a session but the samples (from before keys had one) also losing their anonymity
 * (`created_session = 'retired'`) so that they are never listed as samples. Each start runs it,
 * and every instance every `DEMO_KEY_SWEEP_MS`. Returns the hashes of the keys it revoked.
 */
export async function retireDemoVisitorKeys(db: Database, demoId: string, samples: DemoKeyIds, now: number): Promise<string[]> {
  const visitorKey = and(eq(apiKeys.userId, demoId), notInArray(apiKeys.id, [samples.live, samples.test]));
  const retired = await db
    .update(apiKeys)
    .set({ createdSession: RETIRED_SESSION, revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${new Date(now)})` })
    .where(and(visitorKey, isNull(apiKeys.createdSession)))
    .returning({ keyHash: apiKeys.keyHash });
  const idleSince = (policy: keyof typeof SESSION_POLICY) => new Date(now - SESSION_POLICY[policy].idleMs);
  const sessionLive = exists(
    db
      .select({ one: sql`1` })
      .from(sessions)
      .where(
        and(
          eq(sessions.tokenHash, apiKeys.createdSession),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date(now)),
          or(
            and(eq(sessions.remember, false), gt(sessions.lastSeenAt, idleSince('standard'))),
            and(eq(sessions.remember, true), gt(sessions.lastSeenAt, idleSince('remember'))),
          ),
        ),
      ),
  );
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(now) })
    .where(and(visitorKey, isNull(apiKeys.revokedAt), or(eq(apiKeys.environment, 'live'), not(sessionLive))))
    .returning({ keyHash: apiKeys.keyHash });
  return [...retired, ...revoked].map((row) => row.keyHash);
}

/** How often every instance revokes demo visitors' keys whose session ended without a sign-out. */
export const DEMO_KEY_SWEEP_MS = 10 * 60 * 1000;

/** How long a revoked demo visitor key is kept (its name in the visitor's own recent requests) before it is deleted. */
export const DEMO_REVOKED_KEY_DAYS = 7;

/**
 * The demo visitor-key sweep on its own, for the periodic job: revokes keys whose session ended
 * (`retireDemoVisitorKeys`) and deletes visitor keys revoked more than DEMO_REVOKED_KEY_DAYS ago,
 * so that the shared account's key table does not grow with every visitor. Usage events keep
 * their key id (no foreign key); a deleted key's requests are listed without a key name.
 * Returns how many keys it revoked.
 */
export async function sweepDemoVisitorKeys(context: Pick<AppContext, 'database' | 'clock'>): Promise<number> {
  const { db } = context.database;
  const demo = await findDemoUser(db);
  if (!demo) return 0;
  const now = context.clock.now();
  const hashes = await retireDemoVisitorKeys(db, demo.id, await demoKeyIds(db, demo.id), now);
  forgetRevokedKeys(hashes);
  await db
    .delete(apiKeys)
    .where(
      and(
        eq(apiKeys.userId, demo.id),
        isNotNull(apiKeys.createdSession),
        lt(apiKeys.revokedAt, new Date(now - DEMO_REVOKED_KEY_DAYS * DAY_MS)),
      ),
    );
  return hashes.length;
}

async function createDemoUser(db: Database, passwordHash: string, now: number): Promise<string> {
  const user = await insertUser(db, {
    id: randomUUID(),
    email: DEMO_CREDENTIALS.email,
    name: DEMO_CREDENTIALS.name,
    passwordHash,
    plan: 'pro',
    verified: true,
    authMethod: 'email',
    onboardingCompleted: true,
    isDemo: true,
    createdAt: new Date(now - 120 * DAY_MS),
    updatedAt: new Date(now),
  });
  const month = calendarMonth(now);
  await saveSubscription(db, {
    userId: user.id,
    plan: 'pro',
    period: 'monthly',
    currentPeriodStart: new Date(month.start),
    currentPeriodEnd: new Date(month.end),
    // On Pro since it opened: its free trial was its first 14 days.
    trialEndsAt: new Date(now - 106 * DAY_MS),
    createdAt: new Date(now - 120 * DAY_MS),
    updatedAt: new Date(now),
  });
  const priceCents = planById('pro').price.monthly * 100;
  // This month's renewal and the few before it, all paid.
  let periodEnd = month.end;
  for (let index = 0; index < PAST_INVOICES; index += 1) {
    const period = calendarMonth(periodEnd - 1);
    await insertInvoice(db, {
      id: `inv_${randomUUID().replaceAll('-', '')}`,
      userId: user.id,
      number: invoiceNumber(period.start),
      periodStart: new Date(period.start),
      periodEnd: new Date(period.end),
      amountCents: priceCents,
      lines: [{ description: `Pro plan (monthly), ${billingDay(period.start)} to ${billingDay(period.end - 1)}`, amountCents: priceCents }],
      status: 'paid',
      createdAt: new Date(period.start),
    });
    periodEnd = period.start;
  }
  for (const environment of ['live', 'test'] as const) {
    const name = DEMO_KEY_NAMES[environment];
    const generated = generateApiKey(environment);
    await insertApiKey(db, {
      id: `key_${randomUUID().replaceAll('-', '')}`,
      userId: user.id,
      name,
      environment,
      masked: generated.masked,
      keyHash: generated.keyHash,
      permissions: ['api'],
      createdAt: new Date(now - 100 * DAY_MS),
    });
  }
  return user.id;
}

type DemoKeyIds = Record<KeyEnvironment, string>;

/** The seeded sample keys (the oldest of each environment); their secrets were never shown. */
async function demoKeyIds(db: Database, userId: string): Promise<DemoKeyIds> {
  const rows = await db
    .select({ id: apiKeys.id, environment: apiKeys.environment, name: apiKeys.name })
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(apiKeys.createdAt);
  return {
    live: rows.find((row) => row.environment === 'live')?.id ?? 'key_demo_live',
    test: rows.find((row) => row.environment === 'test')?.id ?? 'key_demo_test',
  };
}
