import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdmitResult, LimitStore, Reservation } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { RedisLimitStore } from './redis-limit-store.ts';
import { testRedis } from '../../../test/gateway/gateway-helpers.ts';

const testRedisStore = testRedis('limits-diff');

type Op =
  | { kind: 'admit'; advance: number; quota: boolean; prompt: number; budget: number }
  | { kind: 'settle'; pick: number; used: number }
  | { kind: 'forget' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('admit' as const),
    advance: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20 * 60_000 })),
    quota: fc.boolean(),
    prompt: fc.integer({ min: 1, max: 3_000 }),
    budget: fc.integer({ min: 1, max: 6_000 }),
  }),
  fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), used: fc.integer({ min: 0, max: 6_000 }) }),
  // An account change: settlements around it count once in both.
  fc.record({ kind: fc.constant('forget' as const) }),
);

/** What both stores must agree on (Retry-After is covered by its own test). */
function shape(result: AdmitResult): unknown {
  if (!result.ok) return result.reason === 'rate' ? { ok: false, reason: 'rate' } : result;
  return { ok: true, granted: result.reservation?.granted ?? null };
}

async function run(store: LimitStore, accountId: string, ops: Op[], start: number): Promise<unknown[]> {
  const outstanding: Reservation[] = [];
  const trace: unknown[] = [];
  let now = start;
  for (const step of ops) {
    if (step.kind === 'admit') {
      now += step.advance;
      const date = new Date(now);
      const result = await store.admit({
        accountId,
        now,
        requestsPerMinute: 4,
        quota: step.quota
          ? {
              limit: 10_000,
              month: date.toISOString().slice(0, 7),
              monthEndsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
              minimum: step.prompt + 1,
              desired: step.prompt + step.budget,
            }
          : null,
        loadUsedTokens: async () => 1_000,
      });
      if (result.ok && result.reservation) outstanding.push(result.reservation);
      trace.push(shape(result));
    } else if (step.kind === 'forget') {
      await store.forgetQuota(accountId, new Date(now).toISOString().slice(0, 7));
    } else if (outstanding.length > 0) {
      const [reservation] = outstanding.splice(step.pick % outstanding.length, 1);
      if (reservation) await store.settle(reservation, step.used);
    }
  }
  return trace;
}

describe('memory and Redis stores on the same operation sequences', () => {
  // Steps advance up to 20 minutes, so reservations also expire (RESERVATION_TTL_MS) in both.
  it('agree on every admission (integer inputs, one month, time moving forward, account changes)', async () => {
    const start = Date.UTC(2025, 2, 3, 9, 0, 0);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const memory = await run(new MemoryLimitStore(), `m-${randomUUID()}`, ops, start);
        const shared = await run(new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix), `r-${randomUUID()}`, ops, start);
        expect(shared).toEqual(memory);
      }),
      { numRuns: 300, seed: 1014696402 },
    );
  });
});
