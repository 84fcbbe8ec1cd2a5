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
  readonly added: { accountId: string; month: string; tokens: number; inTableBy: number }[] = [];
  /** Settlements of these reservations are refused even while the store is up. */
  readonly refusing = new Set<string>();
  /** Settlements of these reservations wait for `release`, then fail as the store does then. */
  readonly hanging = new Set<string>();
  release: () => void = () => undefined;

  /** The next admissions run, then fail as if their answer were lost (ioredis's command timeout). */
  answersLost = 0;
  /** Reservations the store granted, by id (to drop a hold by its id alone). */
  readonly #granted = new Map<string, Reservation>();
  readonly holdsDropped: string[] = [];

  #check(): void {
    if (this.down) throw new Error('Stream isn’t writeable and enableOfflineQueue options is false');
  }

  /** Every forget asked of it, answered or not. */
  readonly forgets: string[] = [];

  async forgetQuota(accountId: string, month: string): Promise<void> {
    this.forgets.push(accountId);
    this.#check();
    await this.inner.forgetQuota(accountId, month);
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    this.#check();
    this.admits += 1;
    const result = await this.inner.admit(request);
    if (result.ok && result.reservation) {
      // The id the caller named, as the Redis store uses it.
      const reservation = { ...result.reservation, id: request.reservationId ?? result.reservation.id };
      this.#granted.set(reservation.id, result.reservation);
    }
    if (this.answersLost > 0) {
      this.answersLost -= 1;
      throw new Error('Command timed out');
    }
    return result;
  }

  async dropHold(_accountId: string, _month: string, id: string): Promise<void> {
    this.#check();
    this.holdsDropped.push(id);
    const reservation = this.#granted.get(id);
    if (reservation) await this.inner.settle(reservation, 0);
  }

  mayHaveRun(error: unknown): boolean {
    return error instanceof Error && error.message === 'Command timed out';
  }

  async settle(reservation: Reservation, usedTokens: number): Promise<void> {
    if (this.hanging.has(reservation.id)) {
      this.hanging.delete(reservation.id);
      await new Promise<void>((resolve) => (this.release = resolve));
    }
    this.#check();
    if (this.refusing.has(reservation.id)) throw new Error('ERR something wrong with this one');
    this.settled.push(usedTokens);
    await this.inner.settle(reservation, usedTokens);
  }

  async addUsage(accountId: string, forMonth: string, tokens: number, inTableBy: number, _id: string): Promise<boolean | 'pending'> {
    this.#check();
    this.added.push({ accountId, month: forMonth, tokens, inTableBy });
    return true;
  }

  readonly requestsAdded: { accountId: string; window: number; count: number }[] = [];

  async addRequests(accountId: string, window: number, count: number): Promise<void> {
    this.#check();
    this.requestsAdded.push({ accountId, window, count });
  }

  refuses(error: unknown): boolean {
    return error instanceof Error && error.message.startsWith('ERR');
  }
}

function setup({ meteringLagMs = 0, retryMs = 20 } = {}) {
  const shared = new FlakySharedStore();
  const failures: unknown[] = [];
  const dropped: [string, number][] = [];
  const clock = { now: NOW };
  const store = new FailoverLimitStore(shared, {
    onFailure: (error) => failures.push(error),
    onDropped: (reason, entries) => dropped.push([reason, entries]),
    now: () => clock.now,
    meteringLagMs,
    retryMs,
  });
  return { shared, store, failures, dropped, clock };
}

function request(overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return { accountId: 'acct', now: NOW, requestsPerMinute: 3, quota: null, loadUsedTokens: async () => 0, ...overrides };
}

const quota = (desired: number) => ({ limit: 1_000, month, monthEndsAt: endsAt, minimum: 11, desired });

async function reserved(result: AdmitResult | Promise<AdmitResult>): Promise<Reservation> {
  const admitted = await result;
  if (!admitted.ok || !admitted.reservation) throw new Error('admitted without a reservation');
  return admitted.reservation;
}

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

  it('adds the tokens of a request the stand-in admitted to the shared count once it answers', async () => {
    const { shared, store } = setup();
    shared.down = true;
    const reservation = await reserved(store.admit(request({ quota: quota(100) })));
    await store.settle(reservation, 40);
    expect(shared.added).toEqual([]);
    expect(store.missed).toBe(1);
    shared.down = false;
    expect(await store.admit(request({ accountId: 'other', now: NOW + 1_000 }))).toMatchObject({ ok: true });
    await expect
      .poll(() => shared.added, { timeout: 2_000, interval: 5 })
      .toEqual([{ accountId: 'acct', month, tokens: 40, inTableBy: NOW }]);
    expect(store.missed).toBe(0);
    expect(shared.settled).toEqual([]);
  });

  it('drops the shared hold of an admission whose answer was lost, once the store answers', async () => {
    const { shared, store, failures } = setup();
    // Admitted in the shared store (600 of 1,000 held), but the answer never came: the stand-in serves it.
    shared.answersLost = 1;
    const lost = await reserved(store.admit(request({ quota: quota(600) })));
    expect(store.standingIn).toBe(true);
    expect(failures).toHaveLength(1);
    await store.settle(lost, 50);
    // Once the shared store answers, the hold it kept is dropped (by the id the failover store named)
    // and the stand-in's 50 tokens are added: 950 are left, not 350.
    await expect.poll(() => shared.holdsDropped.length, { timeout: 2_000, interval: 5 }).toBe(1);
    await expect.poll(() => shared.added.map(({ tokens }) => tokens), { timeout: 2_000, interval: 5 }).toEqual([50]);
    const next = await store.admit(request({ quota: quota(900), now: NOW + WINDOW_MS }));
    expect(next).toMatchObject({ ok: true, reservation: { granted: 900 } });
  });

  it('drops no hold for an admission that was never sent (no connection) or had no quota', async () => {
    const { shared, store } = setup();
    shared.down = true;
    await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = false;
    shared.answersLost = 1;
    expect(await store.admit(request({ accountId: 'no-quota' }))).toMatchObject({ ok: true, reservation: null });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(shared.holdsDropped).toEqual([]);
  });

  it('sends what was missed without waiting for another request, retrying while the store fails', async () => {
    const { shared, store } = setup();
    shared.down = true;
    const reservation = await reserved(store.admit(request({ quota: quota(100) })));
    await store.settle(reservation, 40);
    // Several retries fail meanwhile (every 20, 40, 80 ms …).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(shared.added).toEqual([]);
    shared.down = false;
    await expect.poll(() => shared.added.map(({ tokens }) => tokens), { timeout: 3_000, interval: 5 }).toEqual([40]);
  });

  it('keeps a settlement the shared store refused, without failing the caller, and sends it once it answers', async () => {
    const { shared, store, failures } = setup();
    const reservation = await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = true;
    await expect(store.settle(reservation, 70)).resolves.toBeUndefined();
    expect(failures).toHaveLength(1);
    shared.down = false;
    await expect.poll(() => shared.settled, { timeout: 2_000, interval: 5 }).toEqual([70]);
    // The shared store's quota now counts the 70 tokens: 1,000 - 70 = 930 left.
    expect(await shared.inner.admit(request({ now: NOW + 2_000, quota: { ...quota(2_000), minimum: 931 } }))).toMatchObject({
      ok: false,
      reason: 'quota',
      used: 70,
    });
  });

  it('does not let one entry the store keeps refusing hold up the rest, and drops it after three refusals', async () => {
    const { shared, store, dropped } = setup();
    const poisoned = await reserved(store.admit(request({ quota: quota(100) })));
    const fine = await reserved(store.admit(request({ now: NOW + 1, quota: quota(100) })));
    shared.refusing.add(poisoned.id);
    shared.down = true;
    await store.settle(poisoned, 10);
    await store.settle(fine, 20);
    shared.down = false;
    await expect.poll(() => shared.settled, { timeout: 3_000, interval: 5 }).toEqual([20]);
    await expect.poll(() => store.missed, { timeout: 3_000, interval: 5 }).toBe(0);
    // With its 10 tokens.
    expect(dropped).toEqual([['refused', 10]]);
  });

  it('keeps retrying while the store does not answer, however long, dropping nothing', async () => {
    const { shared, store, dropped, failures } = setup();
    const reservation = await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = true;
    await store.settle(reservation, 10);
    // Retries at 20, 40, 80, 160 ms …: several fail, each told as a failure.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(store.missed).toBe(1);
    expect(dropped).toEqual([]);
    shared.down = false;
    await expect.poll(() => shared.settled, { timeout: 3_000, interval: 5 }).toEqual([10]);
  });

  it('drops the oldest beyond 10,000 waiting entries, and says so', async () => {
    const { shared, store, dropped } = setup();
    shared.down = true;
    for (let index = 0; index <= 10_000; index += 1) {
      await store.settle({ id: `r${index}`, accountId: 'acct', month, granted: 10, admittedAt: NOW, headroom: 0 }, 2);
    }
    expect(store.missed).toBe(10_000);
    expect(dropped).toEqual([['full', 2]]);
  });

  it('when full, gives up a hold to drop before any usage (a hold runs out on its own)', async () => {
    const { shared, store, dropped } = setup();
    // One admission whose answer was lost leaves a hold to drop, then the store stops answering.
    shared.answersLost = 1;
    await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = true;
    for (let index = 1; index < 10_000; index += 1) {
      await store.settle({ id: `r${index}`, accountId: 'acct', month, granted: 10, admittedAt: NOW, headroom: 0 }, 2);
    }
    expect(store.missed).toBe(10_000);
    await store.settle({ id: 'r-last', accountId: 'acct', month, granted: 10, admittedAt: NOW, headroom: 0 }, 2);
    expect(store.missed).toBe(10_000);
    // The hold went, silently; every settlement is kept.
    expect(dropped).toEqual([]);
    shared.down = false;
    await expect.poll(() => shared.settled.length, { timeout: 10_000, interval: 20 }).toBe(10_000);
    expect(shared.holdsDropped).toEqual([]);
  });

  it('merges the tokens of one account and month settled within a second into one entry', async () => {
    const { shared, store, clock } = setup({ meteringLagMs: 1_000, retryMs: 1_000 });
    const warm = await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = true;
    // A settlement the store refuses: a retry waits a second, and nothing is sent meanwhile.
    await store.settle(warm, 7);
    const reservations = [];
    for (let index = 0; index < 3; index += 1)
      reservations.push(await reserved(store.admit(request({ now: NOW + index, quota: quota(100) }))));
    const other = await reserved(store.admit(request({ accountId: 'other', quota: quota(100) })));
    clock.now = Math.floor(NOW / 1_000) * 1_000 + 100;
    await store.settle(reservations[0] as Reservation, 10);
    clock.now += 800;
    await store.settle(reservations[1] as Reservation, 20);
    await store.settle(other, 5);
    // The next second: a new entry.
    clock.now += 200;
    await store.settle(reservations[2] as Reservation, 40);
    expect(store.missed).toBe(4);
    shared.down = false;
    clock.now += 5_000;
    await store.admit(request({ accountId: 'third', now: clock.now }));
    await expect.poll(() => store.missed, { timeout: 3_000, interval: 5 }).toBe(0);
    expect(shared.settled).toEqual([7]);
    const second = Math.floor(NOW / 1_000) * 1_000 + 1_000;
    expect(shared.added).toEqual([
      { accountId: 'acct', month, tokens: 30, inTableBy: second + 900 },
      { accountId: 'other', month, tokens: 5, inTableBy: second + 900 },
      { accountId: 'acct', month, tokens: 40, inTableBy: second + 1_100 },
    ]);
  });

  it('never changes the tokens of an entry once sent (the store may have counted them under its id)', async () => {
    const { shared, store } = setup({ retryMs: 1_000 });
    shared.down = true;
    const first = await reserved(store.admit(request({ quota: quota(100) })));
    const second = await reserved(store.admit(request({ now: NOW + 1, quota: quota(100) })));
    // Sent at once (no retry waiting), and failed: the next settlement makes a new entry.
    await store.settle(first, 10);
    await store.settle(second, 20);
    expect(store.missed).toBe(2);
    shared.down = false;
    await store.admit(request({ accountId: 'other', now: NOW + 2 }));
    await expect.poll(() => shared.added.map(({ tokens }) => tokens), { timeout: 3_000, interval: 5 }).toEqual([10, 20]);
  });

  it('sends tokens with the time by which their usage events are surely in the usage table', async () => {
    const { shared, store, clock } = setup({ meteringLagMs: 1_100 });
    shared.down = true;
    const reservation = await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = false;
    clock.now += 5_000;
    await store.settle(reservation, 40);
    await expect
      .poll(() => shared.added, { timeout: 2_000, interval: 5 })
      .toEqual([{ accountId: 'acct', month, tokens: 40, inTableBy: NOW + 6_100 }]);
  });

  it('does not drop the entry being sent when the queue overflows meanwhile', async () => {
    const { shared, store, dropped } = setup();
    const first = await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = true;
    await store.settle(first, 77);
    shared.hanging.add(first.id);
    // The retry sends it, and waits.
    await new Promise((resolve) => setTimeout(resolve, 60));
    for (let index = 0; index < 10_000; index += 1) {
      await store.settle({ id: `r${index}`, accountId: 'acct', month, granted: 10, admittedAt: NOW, headroom: 0 }, 2);
    }
    expect(store.missed).toBe(10_000);
    // The oldest not in flight (2 tokens) was dropped.
    expect(dropped).toEqual([['full', 2]]);
    // The send fails (the store is still down): the entry is kept, and sent once the store answers.
    shared.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    shared.down = false;
    // It went to the back of the queue, and is sent with the rest.
    await expect.poll(() => shared.settled.length, { timeout: 5_000, interval: 20 }).toBe(10_000);
    expect(shared.settled).toContain(77);
  });

  it('keeps its rate windows through a flapping connection, reloads its quota counts, and starts afresh a window after', async () => {
    const { shared, store } = setup();
    let loads = 0;
    const loadUsedTokens = async () => {
      loads += 1;
      return 100;
    };
    shared.down = true;
    await store.admit(request({ now: NOW, quota: quota(100), loadUsedTokens }));
    await store.admit(request({ now: NOW + 1 }));
    shared.down = false;
    await store.admit(request({ now: NOW + 2 }));
    expect(store.standingIn).toBe(true);
    shared.down = true;
    // Two counted in the instance before: the third is the last this minute (the one Redis
    // admitted in between is not counted here).
    expect(await store.admit(request({ now: NOW + 3, quota: quota(100), loadUsedTokens }))).toMatchObject({ ok: true });
    expect(await store.admit(request({ now: NOW + 4 }))).toMatchObject({ ok: false, reason: 'rate' });
    // Its quota counts went stale while Redis answered: loaded again.
    expect(loads).toBe(2);
    shared.down = false;
    await store.admit(request({ now: NOW + 4 + WINDOW_MS }));
    expect(store.standingIn).toBe(false);
  });

  it('adds the minute’s stand-in admissions to the shared rate counters when the store answers again, each once', async () => {
    const { shared, store } = setup();
    const window = NOW - (NOW % WINDOW_MS);
    shared.down = true;
    await store.admit(request({ now: NOW }));
    await store.admit(request({ now: NOW + 1 }));
    await store.admit(request({ accountId: 'other', now: NOW + 2 }));
    shared.down = false;
    await store.admit(request({ now: NOW + 3 }));
    await store.admit(request({ now: NOW + 4 }));
    expect(shared.requestsAdded).toEqual([
      { accountId: 'acct', window, count: 2 },
      { accountId: 'other', window, count: 1 },
    ]);
    // Down again in the same minute: only what was admitted since is added at the next answer.
    shared.down = true;
    await store.admit(request({ accountId: 'other', now: NOW + 5 }));
    shared.down = false;
    await store.admit(request({ now: NOW + 6 }));
    expect(shared.requestsAdded.slice(2)).toEqual([{ accountId: 'other', window, count: 1 }]);
  });

  it('does not add a past minute’s stand-in admissions to the shared rate counters', async () => {
    const { shared, store } = setup();
    shared.down = true;
    await store.admit(request({ now: NOW }));
    shared.down = false;
    await store.admit(request({ now: NOW + WINDOW_MS }));
    expect(shared.requestsAdded).toEqual([]);
  });

  it('keeps the holds of requests in flight when it loads a stale quota count again', async () => {
    const { shared, store } = setup();
    let loads = 0;
    const loadUsedTokens = async () => {
      loads += 1;
      return 600;
    };
    shared.down = true;
    await reserved(store.admit(request({ now: NOW, quota: quota(300), loadUsedTokens })));
    shared.down = false;
    await store.admit(request({ now: NOW + 1 }));
    shared.down = true;
    // Loaded again (600 used), and the 300 still held: 100 left.
    expect(await store.admit(request({ now: NOW + 2, quota: quota(300), loadUsedTokens }))).toMatchObject({
      ok: true,
      reservation: { granted: 100 },
    });
    expect(loads).toBe(2);
  });

  it('settles a reservation in the stand-in that admitted it, after that one is gone', async () => {
    const { shared, store } = setup();
    shared.down = true;
    const reservation = await reserved(store.admit(request({ quota: quota(100) })));
    shared.down = false;
    await store.admit(request({ now: NOW + WINDOW_MS }));
    expect(store.standingIn).toBe(false);
    await store.settle(reservation, 30);
    expect(shared.settled).toEqual([]);
    await expect.poll(() => shared.added.map(({ tokens }) => tokens), { timeout: 2_000, interval: 5 }).toEqual([30]);
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
  it('replays a forget it missed once the shared store answers: a plan changed during an outage is counted from the table', async () => {
    const { shared, store } = setup();
    let inTable = 100;
    const loadUsedTokens = async () => inTable;
    await reserved(store.admit(request({ quota: quota(100), loadUsedTokens })));
    // The account spends 800 tokens on Pro and comes back to Free while the shared store does not answer.
    inTable = 900;
    shared.down = true;
    await store.forgetQuota('acct', month);
    expect(store.missed).toBe(1);
    shared.down = false;
    await expect.poll(() => shared.forgets.length, { timeout: 2_000, interval: 5 }).toBe(2);
    await expect.poll(() => store.missed, { timeout: 2_000, interval: 5 }).toBe(0);
    // Read again: 900 used and 100 held, none left (not 800 for the rest of the month).
    expect(await store.admit(request({ now: NOW + 1, quota: quota(100), loadUsedTokens }))).toEqual({
      ok: false,
      reason: 'quota',
      used: 900,
      reserved: 100,
    });
  });

  it('leaves the shared count to the instance that made the change, and marks its stand-in’s counts stale', async () => {
    const { shared, store } = setup();
    let inTable = 100;
    const loadUsedTokens = async () => inTable;
    await reserved(store.admit(request({ quota: quota(100), loadUsedTokens })));
    inTable = 900;
    // Told of a change made elsewhere: that instance has reset the shared count (once).
    await store.forgetQuota('acct', month, 'instance');
    expect(shared.forgets).toEqual([]);
    // Its stand-in's count is loaded again at its next admission.
    shared.down = true;
    await reserved(store.admit(request({ accountId: 'other', now: NOW + 1, quota: quota(100), loadUsedTokens })));
    inTable = 950;
    await store.forgetQuota('other', month, 'instance');
    expect(await store.admit(request({ accountId: 'other', now: NOW + 2, quota: quota(100), loadUsedTokens }))).toEqual({
      ok: false,
      reason: 'quota',
      used: 950,
      reserved: 100,
    });
    expect(shared.forgets).toEqual([]);
  });
});
