import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReplyError } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import {
  type AdmitRequest,
  type AdmitResult,
  LATE_SETTLE_MS,
  type LimitStore,
  type QuotaRequest,
  RESERVATION_TTL_MS,
  settlesFirst,
} from './limit-store.ts';
import { FailoverLimitStore } from './failover-limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { RedisLimitStore } from './redis-limit-store.ts';
import { testRedis } from '../../../test/gateway/gateway-helpers.ts';

const testRedisStore = testRedis('limit-stores');

// Mid-month, 5 s into a UTC minute.
const MID = Date.UTC(2025, 5, 15, 12, 0, 5);
const MINUTE = Date.UTC(2025, 5, 15, 12, 0, 0);

function quota(now: number, minimum: number, desired: number, limit = 10_000): QuotaRequest {
  const date = new Date(now);
  return {
    limit,
    month: date.toISOString().slice(0, 7),
    monthEndsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
    minimum,
    desired,
  };
}

function request(accountId: string, now: number, q: QuotaRequest | null, used = 0, rpm = 1_000): AdmitRequest {
  return { accountId, now, requestsPerMinute: rpm, quota: q, loadUsedTokens: async () => used };
}

const stores = (): [string, () => LimitStore][] => [
  ['memory', () => new MemoryLimitStore()],
  ['redis', () => new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix)],
];

async function admit(store: LimitStore, req: AdmitRequest): Promise<AdmitResult> {
  return store.admit(req);
}

describe.each(stores())('%s store: a reservation settled twice counts once', (_name, make) => {
  it('settling one reservation twice neither frees other requests’ holds nor counts its usage twice', async () => {
    const store = make();
    const account = randomUUID();
    const first = await admit(store, request(account, MID, quota(MID, 1, 4_000)));
    const second = await admit(store, request(account, MID, quota(MID, 1, 6_000)));
    if (!first.ok || !first.reservation || !second.ok) throw new Error('setup');
    await store.settle(first.reservation, 100);
    await store.settle(first.reservation, 100); // a retried / duplicated settle
    // 100 used, 6,000 still held by `second`: only 3,900 are left.
    const third = await admit(store, request(account, MID, quota(MID, 1, 10_000)));
    expect(third).toMatchObject({ ok: true, reservation: { granted: 3_900 } });
  });
});

describe.each(stores())('%s store: headroom', (_name, make) => {
  it('reports the quota left neither used nor held once a reservation is granted', async () => {
    const store = make();
    const account = randomUUID();
    // 9,000 used of 10,000: 1,000 left.
    const first = await admit(store, request(account, MID, quota(MID, 1, 300), 9_000));
    expect(first).toMatchObject({ ok: true, reservation: { granted: 300, headroom: 700 } });
    const second = await admit(store, request(account, MID, quota(MID, 1, 600), 9_000));
    // 300 held by the first: 700 left, 600 granted, 100 to spare (less than it holds: it settles first).
    expect(second).toMatchObject({ ok: true, reservation: { granted: 600, headroom: 100 } });
    if (!second.ok || !second.reservation || !first.ok || !first.reservation) throw new Error('setup');
    expect(settlesFirst(first.reservation)).toBe(false);
    expect(settlesFirst(second.reservation)).toBe(true);
    // Capped to what is left: nothing to spare.
    const third = await admit(store, request(account, MID, quota(MID, 1, 600), 9_000));
    expect(third).toMatchObject({ ok: true, reservation: { granted: 100, headroom: 0 } });
    // Settled with 50 used: 1,000 - 50 - 300 - 100 = 550 left for the next.
    await store.settle(second.reservation, 50);
    const fourth = await admit(store, request(account, MID, quota(MID, 1, 200), 9_000));
    expect(fourth).toMatchObject({ ok: true, reservation: { granted: 200, headroom: 350 } });
  });
});

describe.each(stores())('%s store: settlements around forgets (account changes) before the usage table has them', (_name, make) => {
  it('counts each once, however often the account changes before the reload and the settlement is sent', async () => {
    const store = make();
    const account = randomUUID();
    // The usage table holds 1,000 tokens throughout: the meter writes none of these before the reloads.
    const first = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    const second = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!first.ok || !first.reservation || !second.ok || !second.reservation) throw new Error('setup');
    await store.settle(first.reservation, 300);
    await store.forgetQuota(account, '2025-06');
    // Still in flight at the change: held when it settles, with no count loaded.
    await store.settle(second.reservation, 400);
    // The account changes again before any admission reloads the count, and the settlement is sent again.
    await store.forgetQuota(account, '2025-06');
    await store.settle(second.reservation, 400);
    const probe = await admit(store, request(account, MID + 1_000, quota(MID, 1, 10_000), 1_000));
    // 1,000 + 300 + 400 used: 8,300 left (Redis granted 9,000 until 2026-11-29).
    expect(probe).toMatchObject({ ok: true, reservation: { granted: 8_300 } });
    if (!probe.ok || !probe.reservation) throw new Error('setup');
    // Sent once more after the reload: not counted again.
    await store.settle(second.reservation, 400);
    await store.settle(probe.reservation, 0);
    const again = await admit(store, request(account, MID + 2_000, quota(MID, 1, 10_000), 1_000));
    expect(again).toMatchObject({ ok: true, reservation: { granted: 8_300 } });
  });
});

// The Redis store does not remember settlements counted while held (an id per request of the
// month): one sent again after a lost reply and an account change or reload may count twice there
// (an over-count, ADR 0007). The memory store, with nothing to lose in a reply, counts it once.
describe('memory store: a settlement sent again after an account change', () => {
  it('counts once the tokens of a settlement that ran before the change (its reply was lost)', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    // Counted, but its reply never came: the failover store sends it again, after the account changed.
    await store.settle(held.reservation, 500);
    await store.forgetQuota(account, '2025-06');
    await store.settle(held.reservation, 500);
    // The table has the 500 tokens by the reload: 1,500 used, 8,500 left.
    expect(await admit(store, request(account, MID + 60_000, quota(MID, 1, 10_000), 1_500))).toMatchObject({
      ok: true,
      reservation: { granted: 8_500 },
    });
  });
});

describe('memory store: a settlement sent again after the count was reloaded', () => {
  it('counts once the tokens of a reservation admitted before an account change and settled after the reload', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    await store.forgetQuota(account, '2025-06');
    // Reloaded while the stream runs (still held), which then settles; the reply is lost, so it is sent again.
    expect(await admit(store, request(account, MID + 1_000, quota(MID, 1, 1), 1_000))).toMatchObject({ ok: true });
    await store.settle(held.reservation, 500);
    await store.settle(held.reservation, 500);
    // 1,500 used and 1 held: 8,499 left.
    const over = { ok: false, reason: 'quota', used: 1_500, reserved: 1 };
    expect(await admit(store, request(account, MID + 2_000, quota(MID, 8_500, 10_000), 1_000))).toEqual(over);
    // And sent again after another change, before the reload: the count set aside holds it (so does the table now).
    await store.forgetQuota(account, '2025-06');
    await store.settle(held.reservation, 500);
    expect(await admit(store, request(account, MID + 3_000, quota(MID, 8_500, 10_000), 1_500))).toEqual(over);
  });
});

describe('memory store: the requests-per-minute window only moves forward', () => {
  it('admits 10 requests of a 10-rpm account in a minute even when a slow first quota load finishes late', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    let release!: (used: number) => void;
    const slowLoad = new Promise<number>((resolve) => {
      release = resolve;
    });
    // A live request at 12:00:59.990 starts the month's (slow) usage load.
    const late = store.admit({
      ...request(account, MINUTE + 59_990, quota(MINUTE + 59_990, 10, 20), 0, 10),
      loadUsedTokens: () => slowLoad,
    });
    let admitted = 0;
    // Meanwhile, in the next minute, the same account's test key (no quota) uses its 10 requests.
    for (let index = 0; index < 11; index += 1) {
      const result = await store.admit(request(account, MINUTE + 60_010 + index, null, 0, 10));
      if (result.ok) admitted += 1;
    }
    expect(admitted).toBe(10);
    release(0);
    await late; // admitted in the 12:00 window, which resets the 12:01 counter
    for (let index = 0; index < 11; index += 1) {
      const result = await store.admit(request(account, MINUTE + 60_500 + index, null, 0, 10));
      if (result.ok) admitted += 1;
    }
    // Redis keeps one counter per window: 10 in 12:01 whatever order the admits finish in.
    expect(admitted).toBe(10);
  });
});

describe('memory store: a month loaded out of order does not replace the current month', () => {
  it('keeps February’s in-flight reservations when January’s late load lands', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    const jan = Date.UTC(2025, 0, 31, 23, 59, 59, 990);
    const feb = Date.UTC(2025, 1, 1, 0, 0, 0, 10);
    let releaseJan!: (used: number) => void;
    const janLoad = new Promise<number>((resolve) => {
      releaseJan = resolve;
    });
    const janAdmit = store.admit({ ...request(account, jan, quota(jan, 11, 20)), loadUsedTokens: () => janLoad });
    // February's first request: its load answers first, it holds 8,000 of the 10,000.
    const febFirst = await store.admit(request(account, feb, quota(feb, 11, 8_000)));
    expect(febFirst).toMatchObject({ ok: true, reservation: { granted: 8_000 } });
    releaseJan(0);
    await janAdmit;
    // Still February, the first request still in flight: 2,000 left.
    const febSecond = await store.admit(request(account, feb + 1_000, quota(feb + 1_000, 11, 8_000)));
    expect(febSecond).toMatchObject({ ok: true, reservation: { granted: 2_000 } });
  });
});

describe('redis store: Retry-After of the rate limit', () => {
  it('is the time left in the UTC minute (as the memory store says), not the counter key’s TTL', async () => {
    const account = randomUUID();
    const results: Record<string, AdmitResult> = {};
    for (const [name, make] of stores()) {
      const store = make();
      // Ten requests late in the minute (12:00:55), the eleventh at 12:00:58: 2 s to the next window.
      for (let index = 0; index < 10; index += 1) await admit(store, request(`${name}-${account}`, MINUTE + 55_000, null, 0, 10));
      results[name] = await admit(store, request(`${name}-${account}`, MINUTE + 58_000, null, 0, 10));
    }
    expect(results.memory).toEqual({ ok: false, reason: 'rate', retryAfterMs: 2_000 });
    // The next window opens at 12:01:00, 2 s away (not the counter key's TTL).
    expect(results.redis).toEqual({ ok: false, reason: 'rate', retryAfterMs: 2_000 });
  });
});

describe('both stores count odd settled token counts alike', () => {
  for (const [label, used, expectedLeft] of [
    ['a negative count', -500, 10_000],
    ['a fractional count', 1.5, 9_998],
  ] as const) {
    it(`${label}: memory and Redis leave the same quota`, async () => {
      const left: Record<string, unknown> = {};
      for (const [name, make] of stores()) {
        const store = make();
        const account = `${name}-${randomUUID()}`;
        const held = await admit(store, request(account, MID, quota(MID, 1, 100)));
        if (!held.ok || !held.reservation) throw new Error('setup');
        await store.settle(held.reservation, used);
        const probe = await admit(store, request(account, MID, quota(MID, 1, 1_000_000)));
        left[name] = probe.ok ? probe.reservation?.granted : probe;
      }
      expect(left).toEqual({ memory: expectedLeft, redis: expectedLeft });
    });
  }

  it('NaN settled usage counts as 0 and leaves the memory store’s quota on', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 100)));
    if (!held.ok || !held.reservation) throw new Error('setup');
    await store.settle(held.reservation, Number.NaN);
    const results = [];
    for (let index = 0; index < 3; index += 1) results.push(await admit(store, request(account, MID, quota(MID, 1, 10_000))));
    // 100 held then settled as 0: one full-quota reservation fits, the next two do not.
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });
});

describe('redis store: a hold dropped by its id alone (an admission whose answer was lost)', () => {
  const monthOfMid = new Date(MID).toISOString().slice(0, 7);

  it('drops that reservation’s hold, in flight or expired, and no other', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const lost = await admit(store, { ...request(account, MID, quota(MID, 1, 600), 9_000), reservationId: 'lost-1' });
    expect(lost).toMatchObject({ ok: true, reservation: { id: 'lost-1', granted: 600 } });
    // Another request's hold, whose id starts the same way.
    expect(await admit(store, { ...request(account, MID, quota(MID, 1, 100), 9_000), reservationId: 'lost-10' })).toMatchObject({
      ok: true,
      reservation: { granted: 100 },
    });
    await store.dropHold(account, monthOfMid, 'lost-1');
    await store.dropHold(account, monthOfMid, 'never-admitted');
    // 1,000 left less the 100 still held.
    expect(await admit(store, request(account, MID, quota(MID, 1, 10_000), 9_000))).toMatchObject({
      ok: true,
      reservation: { granted: 900 },
    });

    // A hold past its 15 minutes moves to the expired set (kept for a late settlement): dropped there too.
    const later = randomUUID();
    await admit(store, { ...request(later, MID, quota(MID, 1, 300), 0), reservationId: 'lost-2' });
    await admit(store, request(later, MID + RESERVATION_TTL_MS + 1, quota(MID, 1, 1), 0));
    const expiredKey = `${testRedisStore.prefix}limits:{${later}}:expired:${monthOfMid}`;
    expect(await testRedisStore.redis.zrange(expiredKey, 0, -1)).toEqual(['lost-2:300']);
    await store.dropHold(later, monthOfMid, 'lost-2');
    expect(await testRedisStore.redis.zrange(expiredKey, 0, -1)).toEqual([]);
  });

  it('counts a command as possibly run when its answer was lost, not when it was refused or never sent', () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    expect(store.mayHaveRun(new Error('Command timed out'))).toBe(true);
    expect(store.mayHaveRun(new Error('Connection is closed.'))).toBe(true);
    expect(store.mayHaveRun(new MaxRetriesPerRequestError(1))).toBe(true);
    expect(store.mayHaveRun(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(false);
    expect(store.mayHaveRun(new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
  });
});

describe('redis store: non-integer reservations', () => {
  it('a fractional desired reservation is held as a whole number and later admits work', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const first = await store.admit(request(account, MID, quota(MID, 1, 10.5)));
    expect(first.ok).toBe(true);
    // Held as `id:11` (a member `id:10.5` would not match the Lua sum's ':(%d+)$').
    await expect(store.admit(request(account, MID, quota(MID, 1, 10)))).resolves.toMatchObject({ ok: true });
  });
});

describe('both stores expire an unsettled reservation after RESERVATION_TTL_MS', () => {
  it('an unsettled reservation 15 minutes old stops counting in both', async () => {
    const left: Record<string, unknown> = {};
    for (const [name, make] of stores()) {
      const store = make();
      const account = `${name}-${randomUUID()}`;
      await admit(store, request(account, MID, quota(MID, 1, 9_000))); // e.g. a long SSE stream, still running
      const later = MID + 15 * 60_000;
      const probe = await admit(store, request(account, later, quota(later, 1, 9_000)));
      left[name] = probe.ok ? probe.reservation?.granted : probe.reason;
    }
    expect(left).toEqual({ memory: 9_000, redis: 9_000 });
  });

  it('a reservation settled after it expired still counts its tokens, once', async () => {
    const left: Record<string, unknown> = {};
    for (const [name, make] of stores()) {
      const store = make();
      const account = `${name}-${randomUUID()}`;
      const stream = await admit(store, request(account, MID, quota(MID, 1, 9_000)));
      if (!stream.ok || !stream.reservation) throw new Error('setup');
      // 16 minutes later another request finds the stream's hold expired...
      const later = MID + 16 * 60_000;
      const other = await admit(store, request(account, later, quota(later, 1, 100)));
      if (!other.ok || !other.reservation) throw new Error('setup');
      // ...then the stream ends, having used 9,000 tokens, and is settled (twice, as a retry would).
      await store.settle(stream.reservation, 9_000);
      await store.settle(stream.reservation, 9_000);
      await store.settle(other.reservation, 100);
      const probe = await admit(store, request(account, later, quota(later, 1, 10_000)));
      left[name] = probe.ok ? probe.reservation?.granted : probe.reason;
    }
    // 10,000 − 9,000 − 100.
    expect(left).toEqual({ memory: 900, redis: 900 });
  });
});

describe('memory store: a clock stepped back', () => {
  it('starts a new window instead of holding the account to the newer window’s count', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    for (let index = 0; index < 10; index += 1)
      expect(store.admit(request(account, MINUTE + index, null, 0, 10))).toMatchObject({ ok: true });
    // The host's clock is set back an hour: the account gets its 10 requests in that minute.
    const hourBefore = MINUTE - 3_600_000;
    const results = [];
    for (let index = 0; index < 11; index += 1) results.push(store.admit(request(account, hourBefore + index, null, 0, 10)));
    expect(results.filter((result) => (result as AdmitResult).ok)).toHaveLength(10);
  });
});

describe('redis store: the rate counter outlives a lagging instance’s window', () => {
  it('a request from an instance whose clock is behind cannot reopen a full window near its end', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    // Ten requests at 12:00:59.5 fill the 10-rpm window.
    for (let index = 0; index < 10; index += 1) await store.admit(request(account, MINUTE + 59_500, null, 0, 10));
    // 1.6 s later (real time) an instance whose clock reads 12:00:59.6 still sees the full window.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await store.admit(request(account, MINUTE + 59_600, null, 0, 10))).toMatchObject({ ok: false, reason: 'rate' });
  });
});

describe('redis store: requests admitted elsewhere added to a rate counter', () => {
  it('count against the minute like its own admissions, and a counter it creates expires', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    await store.addRequests(account, MINUTE, 2);
    expect(await store.admit(request(account, MID, null, 0, 3))).toMatchObject({ ok: true });
    expect(await store.admit(request(account, MID + 1, null, 0, 3))).toMatchObject({ ok: false, reason: 'rate' });
    const key = `${testRedisStore.prefix}limits:{${account}}:rpm:${MINUTE}`;
    expect(Number(await testRedisStore.redis.get(key))).toBe(3);
    expect(await testRedisStore.redis.pttl(key)).toBeGreaterThan(60_000);
    // A later minute starts afresh.
    expect(await store.admit(request(account, MID + 60_000, null, 0, 3))).toMatchObject({ ok: true });
  });
});

describe('memory store: a request admitted after a slow first load of the month', () => {
  it('does not reset the account’s current minute window (no more than rpm requests in one minute)', async () => {
    const store = new MemoryLimitStore();
    const account = randomUUID();
    let finishLoad: (used: number) => void = () => undefined;
    const slowLoad = () => new Promise<number>((resolve) => (finishLoad = resolve));
    // A live-key request (quota) at 12:00:05 waits for the month's usage (a slow database)...
    const late = store.admit({ ...request(account, MID, quota(MID, 1, 100), 0, 10), loadUsedTokens: slowLoad });
    // ...while test-key requests (no quota, answered at once) fill the 12:02 window two minutes later.
    const now = MINUTE + 125_000;
    const results: AdmitResult[] = [];
    for (let index = 0; index < 10; index += 1) results.push(await store.admit(request(account, now + index, null, 0, 10)));
    // The load finishes; the late request is admitted, counted in the current window...
    finishLoad(0);
    await late;
    // ...and must not replace the 12:02 window: the next 10 requests of that minute are refused.
    for (let index = 0; index < 10; index += 1) results.push(await store.admit(request(account, now + 1_000 + index, null, 0, 10)));
    expect(results.filter((result) => result.ok)).toHaveLength(10);
  });
});

describe('both stores: a settlement more than LATE_SETTLE_MS after the hold expired', () => {
  it('is counted (or not) alike by both stores', async () => {
    const left: Record<string, unknown> = {};
    for (const [name, make] of stores()) {
      const store = make();
      const account = `${name}-${randomUUID()}`;
      const stream = await store.admit(request(account, MID, quota(MID, 1, 5_000)));
      if (!stream.ok || !stream.reservation) throw new Error('setup');
      // 16 minutes later the stream's hold expires (Redis moves it to the expired set).
      const t1 = MID + 16 * 60_000;
      const other = await store.admit(request(account, t1, quota(t1, 1, 100)));
      if (!other.ok || !other.reservation) throw new Error('setup');
      await store.settle(other.reservation, 100);
      // A day and a minute after the expiry, a request (nothing else expiring) is admitted and settled.
      const t2 = MID + RESERVATION_TTL_MS + LATE_SETTLE_MS + 60_000;
      const third = await store.admit(request(account, t2, quota(t2, 1, 1)));
      if (!third.ok || !third.reservation) throw new Error('setup');
      await store.settle(third.reservation, 0);
      // Then the stream's (very) late settlement arrives.
      await store.settle(stream.reservation, 5_000);
      const probe = await store.admit(request(account, t2, quota(t2, 1, 10_000)));
      left[name] = probe.ok ? probe.reservation?.granted : probe.reason;
    }
    // 10,000 − 100: the settlement came too late to count, in both.
    expect(left).toEqual({ memory: 9_900, redis: 9_900 });
  });
});

describe('redis store: usage it missed (requests admitted elsewhere while it was unreachable)', () => {
  it('is added to a count loaded before the usage events were surely in the table', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    expect(await store.addUsage(account, held.reservation.month, 500, MID + 1_000, randomUUID())).toBe(true);
    // 1,500 used and 2,000 held: 6,500 left.
    expect(await admit(store, request(account, MID + 2_000, quota(MID, 1, 10_000)))).toMatchObject({
      ok: true,
      reservation: { granted: 6_500 },
    });
  });

  it('is not added to a count loaded since (from a table that held it), nor by a load that read the table after', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const month = quota(MID, 1, 1).month;
    expect(await store.addUsage(account, month, 500, MID - 5_000, randomUUID())).toBe('pending');
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok) throw new Error('setup');
    expect(await store.addUsage(account, month, 500, MID - 5_000, randomUUID())).toBe(false);
    expect(await store.addUsage(account, month, 500, MID, randomUUID())).toBe(false);
    // 1,000 used and 2,000 held: 7,000 left.
    expect(await admit(store, request(account, MID + 1_000, quota(MID, 1, 10_000)))).toMatchObject({
      ok: true,
      reservation: { granted: 7_000 },
    });
  });

  it('is taken in by the load of a count that was not loaded, when that load may have read the table before', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const month = quota(MID, 1, 1).month;
    // A load starts at MID (reads 1,000 from the table); meanwhile tokens surely in the table only
    // from MID + 500 on, and earlier ones (in the table when the load read it), are added.
    expect(await store.addUsage(account, month, 300, MID + 500, randomUUID())).toBe('pending');
    expect(await store.addUsage(account, month, 200, MID - 500, randomUUID())).toBe('pending');
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok) throw new Error('setup');
    // 1,300 used and 2,000 held: 6,700 left; and nothing is taken in twice.
    for (const now of [MID + 1_000, MID + 2_000]) {
      expect(await admit(store, request(account, now, quota(MID, 6_701, 10_000)))).toMatchObject({
        ok: false,
        reason: 'quota',
        used: 1_300,
      });
    }
    expect(await admit(store, request(account, MID + 3_000, quota(MID, 1, 10_000)))).toMatchObject({
      ok: true,
      reservation: { granted: 6_700 },
    });
  });

  it('counts once what is sent again under the same id (a reply lost)', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const month = quota(MID, 1, 1).month;
    const id = randomUUID();
    expect(await store.addUsage(account, month, 300, MID + 500, id)).toBe('pending');
    expect(await store.addUsage(account, month, 300, MID + 500, id)).toBe('pending');
    expect(await admit(store, request(account, MID, quota(MID, 1, 1), 1_000))).toMatchObject({ ok: true });
    // Sent again after the load that took it in: not added to the count (until 2026-11-29 it was).
    expect(await store.addUsage(account, month, 300, MID + 500, id)).toBe(false);
    const other = randomUUID();
    expect(await store.addUsage(account, month, 200, MID + 1_000, other)).toBe(true);
    expect(await store.addUsage(account, month, 200, MID + 1_000, other)).toBe(false);
    // 1,000 + 300 + 200 used and 1 held.
    expect(await admit(store, request(account, MID + 2_000, quota(MID, 1, 10_000)))).toMatchObject({
      ok: true,
      reservation: { granted: 8_499 },
    });
  });

  it('counts once what was added before an account change and is sent again after it', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const account = randomUUID();
    const month = quota(MID, 1, 1).month;
    const id = randomUUID();
    expect(await admit(store, request(account, MID, quota(MID, 1, 1), 1_000))).toMatchObject({ ok: true });
    expect(await store.addUsage(account, month, 300, MID + 500, id)).toBe(true);
    await store.forgetQuota(account, month);
    // Its reply was lost: the count set aside holds it already, so it is not kept for the load again.
    expect(await store.addUsage(account, month, 300, MID + 500, id)).toBe(false);
    // The table has the 300 tokens by the reload: 1,300 used and 1 held.
    expect(await admit(store, request(account, MID + 60_000, quota(MID, 1, 10_000), 1_300))).toMatchObject({
      ok: true,
      reservation: { granted: 8_699 },
    });
  });

  it('tells a refused command from a server that is busy or away', async () => {
    const store = new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix);
    const key = `${testRedisStore.prefix}limits:{wrong}:used:2026-11`;
    await testRedisStore.redis.hset(key, 'field', '1');
    const refused = await store.addUsage('wrong', '2026-11', 10, MID, randomUUID()).catch((error: unknown) => error);
    expect(String(refused)).toContain('WRONGTYPE');
    expect(store.refuses(refused)).toBe(true);
    expect(store.refuses(new Error('Connection is closed.'))).toBe(false);
    for (const transient of [
      'LOADING Redis is loading the dataset in memory',
      'NOREPLICAS Not enough good replicas to write.',
      'MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk.',
      'ERR max number of clients reached',
      'OOM command not allowed when used memory > maxmemory.',
    ]) {
      expect(store.refuses(new ReplyError(transient))).toBe(false);
    }
  });
});

describe('redis store: a reservation it lost when it restarted empty', () => {
  const clock = { now: MID };
  const make = () => new RedisLimitStore(testRedisStore.redis, testRedisStore.prefix, { now: () => clock.now, meteringLagMs: 2_000 });
  const restartEmpty = async (account: string) => {
    const keys = await testRedisStore.redis.keys(`${testRedisStore.prefix}limits:{${account}}:*`);
    if (keys.length > 0) await testRedisStore.redis.del(...keys);
  };
  const left = async (store: RedisLimitStore, account: string, now: number) => {
    const probe = await admit(store, request(account, now, quota(MID, 1, 10_000)));
    return probe.ok ? probe.reservation?.granted : probe;
  };

  it('counts its settlement, once, when the count was loaded again before its usage event was surely in the table', async () => {
    const store = make();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    await restartEmpty(account);
    // Loaded again at MID + 10 s (1,000: the stream still runs); it settles at MID + 10.5 s.
    expect(await admit(store, request(account, MID + 10_000, quota(MID, 1, 1), 1_000))).toMatchObject({ ok: true });
    clock.now = MID + 10_500;
    await store.settle(held.reservation, 500);
    await store.settle(held.reservation, 500);
    // 1,500 used and 1 held.
    expect(await left(store, account, MID + 11_000)).toBe(8_499);
  });

  it('does not count it when the count was loaded after its usage event was in the table', async () => {
    const store = make();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    // Settled at MID + 1 s, but the reply never came (the settlement is sent again later).
    await restartEmpty(account);
    clock.now = MID + 1_000;
    expect(await admit(store, request(account, MID + 10_000, quota(MID, 1, 1), 1_500))).toMatchObject({ ok: true });
    await store.settle(held.reservation, 500);
    // 1,500 (from the table) used and 1 held.
    expect(await left(store, account, MID + 11_000)).toBe(8_499);
  });

  it('counts its first settlement after an account change once, when the count set aside was loaded after its admission', async () => {
    const store = make();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    await restartEmpty(account);
    expect(await admit(store, request(account, MID + 10_000, quota(MID, 1, 1), 1_000))).toMatchObject({ ok: true });
    await store.forgetQuota(account, '2025-06');
    // The stream settles after the change, before the meter has its tokens in the table.
    clock.now = MID + 10_500;
    await store.settle(held.reservation, 500);
    await store.settle(held.reservation, 500);
    // 1,500 used and 1 held.
    expect(await left(store, account, MID + 11_000)).toBe(8_499);
  });

  it('does not count a settlement it missed while away, replayed after a load from a table that has it', async () => {
    const inner = make();
    const state = { down: false };
    // The Redis store as the failover store sees it: every command fails at once while it is away.
    const shared = new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || property === 'mayHaveRun' || property === 'refuses') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (...args: unknown[]) =>
          state.down ? Promise.reject(new Error('Connection is closed.')) : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
    const store = new FailoverLimitStore(shared, {
      onFailure: () => undefined,
      onDropped: () => undefined,
      now: () => clock.now,
      meteringLagMs: 2_000,
      retryMs: 10,
    });
    const account = randomUUID();
    clock.now = MID;
    const held = await store.admit(request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    // Redis goes away and comes back empty; the request settles meanwhile (500 tokens), queued.
    state.down = true;
    clock.now = MID + 1_000;
    await store.settle(held.reservation, 500);
    expect(store.missed).toBe(1);
    await restartEmpty(account);
    state.down = false;
    // The meter has written the 500 tokens by the reload; the queued settlement is sent after it.
    clock.now = MID + 11_000;
    const reload = await store.admit(request(account, MID + 11_000, quota(MID, 1, 1), 1_500));
    expect(reload).toMatchObject({ ok: true });
    await expect.poll(() => store.missed, { timeout: 2_000, interval: 5 }).toBe(0);
    // 1,500 used (the table's: until 2026-11-29 the replay added its 500 again) and 1 held.
    expect(await left(inner, account, MID + 12_000)).toBe(8_499);
  });

  it('keeps it for the load when no count is loaded yet', async () => {
    const store = make();
    const account = randomUUID();
    const held = await admit(store, request(account, MID, quota(MID, 1, 2_000), 1_000));
    if (!held.ok || !held.reservation) throw new Error('setup');
    await restartEmpty(account);
    clock.now = MID + 10_000;
    await store.settle(held.reservation, 500);
    // A load that started before the usage event was surely in the table takes it in.
    expect(await admit(store, request(account, MID + 11_000, quota(MID, 1, 1), 1_000))).toMatchObject({ ok: true });
    expect(await left(store, account, MID + 12_000)).toBe(8_499);
  });
});
