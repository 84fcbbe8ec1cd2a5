import { describe, expect, it } from 'vitest';
import { AccountLimiter, monthOf } from './account-limiter.ts';
import { FailoverLimitStore, type SharedLimitStore } from './failover-limit-store.ts';
import { type AdmitRequest, type AdmitResult, type Reservation, WINDOW_MS } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 5);
const { month, endsAt } = monthOf(NOW);

/** A shared store (an in-memory one inside) whose connection can be taken away, as Redis's can. */
class FlakySharedStore implements SharedLimitStore {
  readonly inner = new MemoryLimitStore();
  down = false;
  admits = 0;
  readonly settled: number[] = [];
  readonly forgotten: string[] = [];

  #check(): void {
    if (this.down) throw new Error('Stream isn’t writeable and enableOfflineQueue options is false');
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    this.#check();
    this.admits += 1;
    return this.inner.admit(request);
  }

  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    this.#check();
    this.settled.push(usedTokens);
    await this.inner.settle(reservation, usedTokens);
  }

  async forgetUsage(accountId: string, forMonth: string): Promise<void> {
    this.#check();
    this.forgotten.push(`${accountId} ${forMonth}`);
  }
}

function setup(meteringLagMs = 20) {
  const shared = new FlakySharedStore();
  const failures: unknown[] = [];
  const store = new FailoverLimitStore(shared, { now: Date.now, onFailure: (error) => failures.push(error), meteringLagMs });
  return { shared, store, failures };
}

function request(overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return { accountId: 'acct', now: NOW, requestsPerMinute: 3, quota: null, loadUsedTokens: async () => 0, ...overrides };
}

const quota = (desired: number) => ({ limit: 1_000, month, monthEndsAt: endsAt, minimum: 11, desired });

describe('FailoverLimitStore', () => {
  it('uses the shared store while it answers', async () => {
    const { shared, store, failures } = setup();
    expect(await store.admit(request())).toEqual({ ok: true, reservation: null });
    expect(shared.admits).toBe(1);
    expect(store.standingIn).toBe(false);
    expect(failures).toEqual([]);
  });

  it('counts the rate limit in the instance while the shared store fails, and says why', async () => {
    const { shared, store, failures } = setup();
    shared.down = true;
    const results = [];
    for (let index = 0; index < 4; index += 1) results.push(await store.admit(request({ now: NOW + index })));
    expect(results.map((result) => result.ok)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ reason: 'rate' });
    expect(store.standingIn).toBe(true);
    expect(failures).toHaveLength(4);
    expect(String(failures[0])).toContain('enableOfflineQueue');
  });

  it('holds the quota in the instance from the usage table, and settles there', async () => {
    const { shared, store } = setup();
    shared.down = true;
    let loads = 0;
    const loadUsedTokens = async () => {
      loads += 1;
      return 600;
    };
    const first = await store.admit(request({ quota: quota(300), loadUsedTokens }));
    const second = await store.admit(request({ quota: quota(300), loadUsedTokens }));
    expect(first).toMatchObject({ ok: true, reservation: { granted: 300 } });
    // 600 used and 300 held: 100 left, so the second is granted what is left.
    expect(second).toMatchObject({ ok: true, reservation: { granted: 100 } });
    expect(await store.admit(request({ quota: quota(300), loadUsedTokens }))).toEqual({
      ok: false,
      reason: 'quota',
      used: 600,
      reserved: 400,
    });
    expect(loads).toBe(1);
    if (!first.ok || !first.reservation) throw new Error('admitted without a reservation');
    await store.settle(first.reservation, 50);
    expect(shared.settled).toEqual([]);
    // 650 used, 100 held: 250 left for the next minute's request.
    expect(await store.admit(request({ now: NOW + WINDOW_MS, quota: quota(300), loadUsedTokens }))).toMatchObject({
      ok: true,
      reservation: { granted: 250 },
    });
  });

  it('refuses over the quota while standing in, as the shared store would', async () => {
    const { shared, store } = setup();
    shared.down = true;
    const limiter = new AccountLimiter(store);
    const admission = limiter.admit({
      accountId: 'full',
      plan: 'free',
      environment: 'live',
      now: NOW,
      promptTokens: 10,
      maxTokens: 10,
      loadUsedTokens: async () => 10_000,
    });
    await expect(admission).rejects.toMatchObject({ status: 429, code: 'quota_exceeded' });
  });

  it('forgets the shared count of an account the instance admitted, once the usage table holds its tokens', async () => {
    const { shared, store } = setup(50);
    shared.down = true;
    const admitted = await store.admit(request({ quota: quota(100) }));
    if (!admitted.ok || !admitted.reservation) throw new Error('admitted without a reservation');
    shared.down = false;
    expect(await store.admit(request({ accountId: 'other', now: NOW + 1_000 }))).toMatchObject({ ok: true });
    await store.settle(admitted.reservation, 40);
    // Not before the meter has written the request: the reload would miss its tokens.
    expect(shared.forgotten).toEqual([]);
    await expect.poll(() => shared.forgotten, { timeout: 2_000, interval: 10 }).toEqual([`acct ${month}`]);
    expect(shared.settled).toEqual([]);
  });

  it('keeps what it could not forget until the shared store answers again', async () => {
    const { shared, store } = setup(10);
    shared.down = true;
    const admitted = await store.admit(request({ quota: quota(100) }));
    if (!admitted.ok || !admitted.reservation) throw new Error('admitted without a reservation');
    await store.settle(admitted.reservation, 40);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(shared.forgotten).toEqual([]);
    shared.down = false;
    await store.admit(request({ now: NOW + 1_000 }));
    await expect.poll(() => shared.forgotten, { timeout: 2_000, interval: 10 }).toEqual([`acct ${month}`]);
  });

  it('sends a settlement the shared store refused again once it answers, and it counts once', async () => {
    const { shared, store } = setup();
    const admitted = await store.admit(request({ quota: quota(100) }));
    if (!admitted.ok || !admitted.reservation) throw new Error('admitted without a reservation');
    shared.down = true;
    await expect(store.settle(admitted.reservation, 70)).rejects.toThrow(/enableOfflineQueue/);
    shared.down = false;
    await store.admit(request({ now: NOW + 1_000 }));
    await expect.poll(() => shared.settled, { timeout: 2_000, interval: 10 }).toEqual([70]);
    // The shared store's quota now counts the 70 tokens: 1,000 - 70 = 930 left.
    expect(await shared.inner.admit(request({ now: NOW + 2_000, quota: { ...quota(2_000), minimum: 931 } }))).toMatchObject({
      ok: false,
      reason: 'quota',
      used: 70,
    });
  });

  it('keeps its counts through a flapping connection, and starts afresh a window after the last failure', async () => {
    const { shared, store } = setup();
    shared.down = true;
    await store.admit(request({ now: NOW }));
    await store.admit(request({ now: NOW + 1 }));
    shared.down = false;
    await store.admit(request({ now: NOW + 2 }));
    expect(store.standingIn).toBe(true);
    shared.down = true;
    // Two counted in the instance before: the third is the last this minute.
    expect(await store.admit(request({ now: NOW + 3 }))).toMatchObject({ ok: true });
    expect(await store.admit(request({ now: NOW + 4 }))).toMatchObject({ ok: false, reason: 'rate' });
    shared.down = false;
    await store.admit(request({ now: NOW + 4 + WINDOW_MS }));
    expect(store.standingIn).toBe(false);
  });

  it('settles a reservation in the stand-in that admitted it, after that one is gone', async () => {
    const { shared, store } = setup(10);
    shared.down = true;
    const admitted = await store.admit(request({ quota: quota(100) }));
    if (!admitted.ok || !admitted.reservation) throw new Error('admitted without a reservation');
    shared.down = false;
    await store.admit(request({ now: NOW + WINDOW_MS }));
    expect(store.standingIn).toBe(false);
    await store.settle(admitted.reservation, 30);
    expect(shared.settled).toEqual([]);
    await expect.poll(() => shared.forgotten, { timeout: 2_000, interval: 10 }).toEqual([`acct ${month}`]);
  });

  it('passes on a failure to read the usage table, without standing in for the shared store', async () => {
    const { store, failures } = setup();
    const unreadable = request({
      quota: quota(100),
      loadUsedTokens: () => Promise.reject(new Error('connection to the database lost')),
    });
    await expect(store.admit(unreadable)).rejects.toThrow('connection to the database lost');
    expect(store.standingIn).toBe(false);
    expect(failures).toEqual([]);
  });
});
