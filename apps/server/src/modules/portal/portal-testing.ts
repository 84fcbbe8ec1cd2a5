import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';
import { syncSubscription } from '../billing/billing.service.ts';
import { createSession, SESSION_COOKIE } from '../auth/session.service.ts';
import type { UsageEventInput } from '../usage/usage.writer.ts';

/** Test support for the portal modules: a settable clock and usage-event factories. */
export function settableClock(startIso: string) {
  let current = Date.parse(startIso);
  return {
    now: () => current,
    set(iso: string) {
      current = Date.parse(iso);
    },
    advance(ms: number) {
      current += ms;
    },
  };
}

export function usageEvent(userId: string, at: string, overrides: Partial<UsageEventInput> = {}): UsageEventInput {
  return {
    requestId: `req_${randomUUID()}`,
    userId,
    apiKeyId: null,
    environment: 'live',
    provider: 'openai',
    model: 'gpt-4o-mini',
    promptTokens: 100,
    completionTokens: 50,
    costMicros: 45,
    latencyMs: 400,
    statusCode: 200,
    errorType: null,
    streamed: false,
    ...overrides,
    createdAt: new Date(at),
  };
}

/** Same-origin JSON headers for state-changing inject() calls. */
export const jsonHeaders = (cookie: string) => ({ cookie, 'content-type': 'application/json' });

/** Signed-in portal calls on `app()` (read when called: a test may rebuild its app), and new sessions at the clock's time. */
export function portalClient(app: () => FastifyInstance, clock: { now(): number }) {
  return {
    get: (url: string, cookie: string) => app().inject({ method: 'GET', url, headers: { cookie } }),
    post: (url: string, cookie: string, payload: unknown = {}) =>
      app().inject({ method: 'POST', url, headers: jsonHeaders(cookie), payload: JSON.stringify(payload) }),
    sessionFor: async (userId: string) =>
      `${SESSION_COOKIE}=${(await createSession(app().context.database.db, userId, { remember: false, now: clock.now() })).token}`,
  };
}

/**
 * Uses up an account's one free trial (it ended an hour before `now`), so that its next move to a
 * paid plan is billed at once: for tests of proration, invoices and renewals.
 */
export async function spendTrial(db: Database, userId: string, now: number): Promise<void> {
  await syncSubscription(db, { id: userId, plan: 'free' }, now);
  await db
    .update(subscriptions)
    .set({ trialEndsAt: new Date(now - 3_600_000) })
    .where(eq(subscriptions.userId, userId));
}
