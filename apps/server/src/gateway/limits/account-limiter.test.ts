import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AccountLimiter, type AccountAdmission } from './account-limiter.ts';
import type { LimitStore } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { RedisLimitStore } from './redis-limit-store.ts';
import { testRedis } from '../../../test/gateway/gateway-helpers.ts';

const testRedisStore = testRedis('limiter');

const stores: [string, () => LimitStore][] = [
  ['memory', () => new MemoryLimitStore()],
  ['redis', () => new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix)],
];

describe.each(stores)('AccountLimiter on the %s store: quota refusals caused only by requests in flight', (_name, make) => {
  it('answer a short, retryable 429, not the end of the month', async () => {
    const limiter = new AccountLimiter(make());
    const now = Date.UTC(2025, 5, 15, 12, 0, 5);
    const base: AccountAdmission = {
      accountId: randomUUID(),
      plan: 'free',
      environment: 'live',
      now,
      promptTokens: 10,
      maxTokens: 9_990,
      loadUsedTokens: async () => 0,
    };
    const first = await limiter.admit(base); // holds all 10,000 while in flight; nothing used yet
    const refusal = await Promise.resolve(limiter.admit({ ...base, maxTokens: 100 })).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', retryAfterSeconds: 2 });
    // The first request settles a second later having used 20 tokens: 9,980 are free again.
    await limiter.settle(first.reservation, 20);
    await expect(Promise.resolve(limiter.admit({ ...base, now: now + 1_000, maxTokens: 100 }))).resolves.toBeDefined();
  });
});

describe.each(stores)('AccountLimiter on the %s store: a count forgotten after an account change', (_name, make) => {
  it('is read from the usage table again, with the tokens used meanwhile on a plan without a quota', async () => {
    const store = make();
    const limiter = new AccountLimiter(store);
    const now = Date.UTC(2025, 5, 15, 12, 0, 5);
    let inTable = 5_000;
    const base: AccountAdmission = {
      accountId: randomUUID(),
      plan: 'free',
      environment: 'live',
      now,
      promptTokens: 10,
      maxTokens: 100,
      loadUsedTokens: async () => inTable,
    };
    const first = await limiter.admit(base);
    await limiter.settle(first.reservation, 110);
    inTable = 5_110;
    // The account moves to Pro, spends 50,000 tokens there (only the usage table counts them), and comes back to Free.
    inTable += 50_000;
    await expect(Promise.resolve(limiter.admit({ ...base, now: now + 1_000 }))).resolves.toBeDefined();
    await store.forgetQuota(base.accountId, '2025-06');
    const refusal = await Promise.resolve(limiter.admit({ ...base, now: now + 2_000 })).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: 'quota_exceeded' });
  });
});

describe('AccountLimiter: a prompt larger than the whole monthly quota', () => {
  it('is refused for what it is, with no Retry-After (the next month could not hold it either)', async () => {
    const limiter = new AccountLimiter(new MemoryLimitStore());
    const refusal = await Promise.resolve(
      limiter.admit({
        accountId: randomUUID(),
        plan: 'free',
        environment: 'live',
        now: Date.UTC(2025, 5, 15, 12, 0, 5),
        promptTokens: 15_000,
        maxTokens: undefined,
        loadUsedTokens: async () => 0,
      }),
    ).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, type: 'insufficient_quota', code: 'quota_exceeded', retryAfterSeconds: undefined });
    expect((refusal as Error).message).toBe(
      "This request's prompt (about 15,000 tokens) is larger than the Free plan's whole monthly quota of 10,000 tokens. Shorten the prompt, or upgrade your plan for more tokens.",
    );
  });
});

describe.each(stores)(
  'AccountLimiter on the %s store: a count forgotten while the meter has not written the last tokens',
  (_name, make) => {
    const now = Date.UTC(2025, 5, 15, 12, 0, 5);
    // The usage table holds 1,000 tokens throughout: the meter's batch is not written before the reload.
    const admission = (accountId: string, at: number, maxTokens: number): AccountAdmission => ({
      accountId,
      plan: 'free',
      environment: 'live',
      now: at,
      promptTokens: 10,
      maxTokens,
      loadUsedTokens: async () => 1_000,
    });

    it('counts a request in flight at the forget that settles before the reload', async () => {
      const store = make();
      const limiter = new AccountLimiter(store);
      const accountId = randomUUID();
      const inFlight = await limiter.admit(admission(accountId, now, 1_990)); // holds 2,000
      await store.forgetQuota(accountId, '2025-06');
      await limiter.settle(inFlight.reservation, 1_500);
      // 1,000 in the table and 1,500 settled: 7,500 left, not 9,000.
      const next = await limiter.admit(admission(accountId, now + 1_000, 9_990));
      expect(next.reservation).toMatchObject({ granted: 7_500 });
    });

    it('counts the tokens settled just before the forget that the table does not have yet, and once when it has them', async () => {
      const store = make();
      const limiter = new AccountLimiter(store);
      const accountId = randomUUID();
      const first = await limiter.admit(admission(accountId, now, 1_990));
      await limiter.settle(first.reservation, 500);
      await store.forgetQuota(accountId, '2025-06');
      const next = await limiter.admit(admission(accountId, now + 1_000, 9_990));
      expect(next.reservation).toMatchObject({ granted: 8_500 });
      await limiter.settle(next.reservation, 0);
      // The meter writes the 500 tokens; another change reloads the count: they count once.
      await store.forgetQuota(accountId, '2025-06');
      const third = await limiter.admit({ ...admission(accountId, now + 2_000, 9_990), loadUsedTokens: async () => 1_500 });
      expect(third.reservation).toMatchObject({ granted: 8_500 });
    });
  },
);

describe.each(stores)('AccountLimiter on the %s store: a month whose usage cannot be read', (_name, make) => {
  it('is served without the quota, but within the rate limit, and the failure is reported', async () => {
    const failures: unknown[] = [];
    const limiter = new AccountLimiter(make(), (error) => failures.push(error));
    const now = Date.UTC(2025, 5, 15, 12, 0, 5);
    const unreadable: AccountAdmission = {
      accountId: randomUUID(),
      plan: 'free',
      environment: 'live',
      now,
      promptTokens: 10,
      maxTokens: 100,
      loadUsedTokens: () => Promise.reject(new Error('connection to the database lost')),
    };
    // Free allows 10 requests a minute: the 11th is refused although the quota could not be checked.
    for (let index = 0; index < 10; index += 1) {
      await expect(Promise.resolve(limiter.admit({ ...unreadable, now: now + index }))).resolves.toEqual({
        reservation: null,
        maxTokensCap: undefined,
      });
    }
    const refusal = await Promise.resolve(limiter.admit({ ...unreadable, now: now + 10 })).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    // Each request served without the quota reports it (the memory store also tries to load before refusing the 11th).
    expect(failures.length).toBeGreaterThanOrEqual(10);
    expect(String(failures[0])).toContain('connection to the database lost');
  });
});
