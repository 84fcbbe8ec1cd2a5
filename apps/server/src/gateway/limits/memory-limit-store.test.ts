import { describe, expect, it } from 'vitest';
import { AccountLimiter, monthOf } from './account-limiter.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import type { AdmitRequest, QuotaRequest } from './limit-store.ts';

const NOW = Date.UTC(2025, 1, 10, 8, 30, 20);

describe('AccountLimiter on the memory store', () => {
  it('loads the month’s usage once per account, even under concurrency', async () => {
    const limiter = new AccountLimiter(new MemoryLimitStore());
    let loads = 0;
    const loadUsedTokens = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return 100;
    };
    const admissions = await Promise.all(
      Array.from({ length: 5 }, () =>
        limiter.admit({ accountId: 'a', plan: 'free', environment: 'live', now: NOW, promptTokens: 10, maxTokens: 20, loadUsedTokens }),
      ),
    );
    expect(loads).toBe(1);
    expect(admissions.every((admission) => admission.reservation?.granted === 30)).toBe(true);
  });

  it('settles reservations into used tokens and frees what was not used', async () => {
    const limiter = new AccountLimiter(new MemoryLimitStore());
    const input = {
      accountId: 'b',
      plan: 'free' as const,
      environment: 'live' as const,
      now: NOW,
      promptTokens: 1_000,
      maxTokens: 4_000,
      loadUsedTokens: async () => 0,
    };
    const first = await limiter.admit(input);
    const second = await limiter.admit(input);
    expect(second.reservation?.granted).toBe(5_000);
    expect(second.maxTokensCap).toBeUndefined();
    // Everything is held by requests in flight, nothing used yet: a short wait, not the month's end.
    await expect(limiter.admit(input)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfterSeconds: 2 });
    await limiter.settle(first.reservation, 1_200);
    await limiter.settle(second.reservation, 1_300);
    const third = await limiter.admit(input);
    expect(third.reservation?.granted).toBe(5_000);
    const fourth = await limiter.admit(input);
    expect(fourth.reservation?.granted).toBe(2_500);
    expect(fourth.maxTokensCap).toBe(1_500);
    await limiter.settle(third.reservation, 5_000);
    await limiter.settle(fourth.reservation, 2_500);
    // 10,000 of 10,000 used: refused until the month ends.
    const refusal = await Promise.resolve(limiter.admit(input)).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: 'quota_exceeded' });
    expect((refusal as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(86_400);
  });

  it('skips the quota for test keys, unlimited plans and byo-keys, but not the rate limit', async () => {
    const limiter = new AccountLimiter(new MemoryLimitStore());
    const loadUsedTokens = async () => Number.MAX_SAFE_INTEGER;
    for (const [plan, environment] of [
      ['free', 'test'],
      ['enterprise', 'live'],
      ['byo-keys', 'live'],
    ] as const) {
      const admitted = await limiter.admit({
        accountId: `${plan}-${environment}`,
        plan,
        environment,
        now: NOW,
        promptTokens: 10,
        maxTokens: undefined,
        loadUsedTokens,
      });
      expect(admitted.reservation).toBeNull();
    }
    const free = { accountId: 'rate', plan: 'free' as const, environment: 'test' as const, promptTokens: 1, maxTokens: 1, loadUsedTokens };
    for (let index = 0; index < 10; index += 1) await limiter.admit({ ...free, now: NOW });
    await expect(limiter.admit({ ...free, now: NOW })).rejects.toMatchObject({ status: 429, retryAfterSeconds: 40 });
    expect(await limiter.admit({ ...free, now: NOW + 40_000 })).toBeDefined();
  });

  it('names the quota period in UTC', () => {
    expect(monthOf(Date.UTC(2024, 11, 31, 23, 59))).toEqual({ month: '2024-12', endsAt: Date.UTC(2025, 0, 1) });
  });
});

describe('AccountLimiter when the store fails', () => {
  it('asks for the rate limit alone, then serves the request without limits and reports the failure once', async () => {
    const failures: unknown[] = [];
    const asked: (QuotaRequest | null)[] = [];
    const broken = {
      admit: async (request: AdmitRequest) => {
        asked.push(request.quota);
        return Promise.reject(new Error('redis down'));
      },
      settle: async () => undefined,
      forgetQuota: async () => undefined,
    };
    const limiter = new AccountLimiter(broken, (error) => failures.push(error));
    const admitted = await limiter.admit({
      accountId: 'x',
      plan: 'free',
      environment: 'live',
      now: NOW,
      promptTokens: 5,
      maxTokens: 5,
      loadUsedTokens: async () => 0,
    });
    expect(admitted).toEqual({ reservation: null, maxTokensCap: undefined });
    // Until 2026-11-29 a failure with a quota (the usage table unreadable) skipped the rate limit too.
    expect(asked.map((quota) => quota !== null)).toEqual([true, false]);
    expect(failures).toHaveLength(1);
  });
});

describe('MemoryLimitStore: quota counts marked stale', () => {
  const month = '2026-11';
  const quota = (desired: number) => ({ limit: 1_000, month, monthEndsAt: Date.UTC(2026, 11, 1), minimum: 1, desired });
  const admit = async (store: MemoryLimitStore, desired: number, loadUsedTokens: () => Promise<number>, now = Date.UTC(2026, 10, 26)) =>
    store.admit({ accountId: 'a', now, requestsPerMinute: 100, quota: quota(desired), loadUsedTokens });

  it('loads again at the next admission, keeping the holds and never lowering the count', async () => {
    const store = new MemoryLimitStore();
    let table = 100;
    let loads = 0;
    const load = async () => {
      loads += 1;
      return table;
    };
    expect(await admit(store, 200, load)).toMatchObject({ ok: true, reservation: { granted: 200 } });
    store.markQuotasStale();
    // The table says less than counted here (this instance's last settlements are not in it yet): 100 stays.
    table = 50;
    expect(await admit(store, 1_000, load)).toMatchObject({ ok: true, reservation: { granted: 700 } });
    expect(loads).toBe(2);
    // Fresh again: no load.
    expect(await admit(store, 1_000, load)).toMatchObject({ ok: false, reason: 'quota', used: 100, reserved: 900 });
    expect(loads).toBe(2);
    store.markQuotasStale();
    table = 150;
    expect(await admit(store, 1_000, load)).toMatchObject({ ok: false, reason: 'quota', used: 150, reserved: 900 });
  });

  it('keeps a count stale when the load that refreshed it started before it was marked', async () => {
    const store = new MemoryLimitStore();
    expect(await admit(store, 10, async () => 0)).toMatchObject({ ok: true });
    store.markQuotasStale();
    let release: (used: number) => void = () => undefined;
    const slow = admit(store, 10, () => new Promise<number>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.markQuotasStale();
    release(300);
    expect(await slow).toMatchObject({ ok: true });
    let loads = 0;
    expect(
      await admit(store, 10, async () => {
        loads += 1;
        return 400;
      }),
    ).toMatchObject({ ok: true });
    expect(loads).toBe(1);
    // 400 used and 30 held.
    expect(await admit(store, 1_000, async () => 0)).toMatchObject({ ok: true, reservation: { granted: 570 } });
  });
});
