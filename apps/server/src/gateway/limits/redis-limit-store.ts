import { randomUUID } from 'node:crypto';
import { type Redis, ReplyError } from 'ioredis';
import type { SharedLimitStore } from './failover-limit-store.ts';
import {
  type AdmitRequest,
  type AdmitResult,
  type ForgetScope,
  LATE_SETTLE_MS,
  RESERVATION_TTL_MS,
  type Reservation,
  tokenCount,
  WINDOW_MS,
  windowStart,
} from './limit-store.ts';

/**
 * Admission in one round trip. KEYS: rate counter, month's used tokens, in-flight reservations
 * (a sorted set of `id:tokens` scored by expiry), expired reservations not yet settled (scored
 * by expiry), when the month's used tokens were loaded from the database, tokens added while they
 * were not loaded (a sorted set of `id:tokens` scored by when they are surely in the database),
 * the count as it was when last forgotten (FORGET).
 * ARGV: rpm, ms left in the minute's window, quota (-1: none), minimum, desired, now,
 * member id, reservation expiry, used tokens from the database (-1: unknown), counters' ttl ms,
 * oldest expiry still settleable (all whole numbers). Returns {0, ms to wait} when
 * rate-limited, {1, used, reserved} over quota, {2} when the month's usage must be loaded
 * first, {3, granted, tokens left unreserved after it} when admitted. A count loaded from the database (read after `now`) takes in
 * the tokens added meanwhile that were not surely in the database by `now`. After a forget it is
 * at least the forgotten count plus every token added since: the table may not have the tokens
 * settled in the last metering interval before the forget yet, and both are counts of tokens
 * used, so the larger counts none twice (the table's is larger after a spell without a quota).
 * Times come from the
 * caller's clock, not Redis's. The rate
 * counter lives a whole window and a second from its first request, whatever the instance's
 * clock said, so an instance whose clock lags cannot recreate it near the window's end.
 */
/** Tokens kept aside for a count's load are dropped after this long: a load by then reads them from the table. */
const PENDING_TTL_MS = 60 * 60_000;
/** Ids counted once are remembered this long after the last: longer than anything is sent again. */
const COUNTED_TTL_MS = 2 * 86_400_000;

const ADMIT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, tonumber(ARGV[2])} end
local granted = 0
local headroom = -1
local quota = tonumber(ARGV[3])
if quota >= 0 then
  local used = redis.call('GET', KEYS[2])
  if not used then
    if tonumber(ARGV[9]) < 0 then return {2} end
    used = tonumber(ARGV[9])
    local kept = tonumber(redis.call('GET', KEYS[7]) or '-1')
    local added = redis.call('ZRANGE', KEYS[6], 0, -1, 'WITHSCORES')
    for index = 1, #added, 2 do
      local tokens = tonumber(string.match(added[index], ':(%d+)$'))
      if tonumber(added[index + 1]) > tonumber(ARGV[6]) then used = used + tokens end
      if kept >= 0 then kept = kept + tokens end
    end
    if kept > used then used = kept end
    redis.call('DEL', KEYS[6], KEYS[7])
    redis.call('SET', KEYS[2], string.format('%d', used), 'PX', ARGV[10])
    redis.call('SET', KEYS[5], ARGV[6], 'PX', ARGV[10])
  end
  used = tonumber(used)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[6], 'WITHSCORES')
  if #expired > 0 then
    for index = 1, #expired, 2 do redis.call('ZADD', KEYS[4], expired[index + 1], expired[index]) end
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[6])
    redis.call('PEXPIRE', KEYS[4], ARGV[10])
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[11])
  local reserved = 0
  for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    reserved = reserved + tonumber(string.match(member, ':(%d+)$'))
  end
  local remaining = quota - used - reserved
  if remaining < tonumber(ARGV[4]) then return {1, used, reserved} end
  granted = math.min(tonumber(ARGV[5]), remaining)
  headroom = remaining - granted
  redis.call('ZADD', KEYS[3], ARGV[8], ARGV[7] .. ':' .. string.format('%d', granted))
  redis.call('PEXPIRE', KEYS[3], ARGV[10])
end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS + 1_000}) end
return {3, granted, headroom}
`;

/**
 * KEYS: used tokens, reservations, expired reservations, when the used tokens were loaded, tokens
 * kept for a load, ids already counted. ARGV: member, tokens used, reservation id, when it was
 * admitted, when its usage event is surely in the usage table. The tokens count when the
 * reservation was still held or had expired unsettled, so settling one twice changes nothing
 * while a stream that outlived its reservation is still counted. While the count is not loaded
 * (forgotten after an account change, or Redis restarted empty) they are kept for its load, held
 * or not, and their id marked counted so that a settlement sent again after the load is not
 * counted as lost, nor kept for the load twice. (A settlement counted while held is not marked:
 * that would cost an id per request of the month. Sent again after a lost reply and an account
 * change or reload, it finds no hold and is counted again: an over-count, never an under-count,
 * ADR 0007.) A reservation not held because
 * Redis restarted empty after admitting it (the count was loaded since) is counted as ADD_USAGE
 * counts a usage, once. Returns 1 when held, 2 when kept for a load, 3 when counted as lost, 0 when
 * nothing was done.
 */
const SETTLE = `
local held = redis.call('ZREM', KEYS[2], ARGV[1]) == 1 or redis.call('ZREM', KEYS[3], ARGV[1]) == 1
if held and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBY', KEYS[1], ARGV[2])
  return 1
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  if redis.call('SADD', KEYS[6], ARGV[3]) == 0 then return 0 end
  redis.call('PEXPIRE', KEYS[6], ${COUNTED_TTL_MS})
  redis.call('ZADD', KEYS[5], ARGV[5], ARGV[3] .. ':' .. ARGV[2])
  redis.call('PEXPIRE', KEYS[5], ${PENDING_TTL_MS})
  return 2
end
local loaded = tonumber(redis.call('GET', KEYS[4]) or '-1')
if loaded > tonumber(ARGV[4]) and loaded < tonumber(ARGV[5]) and redis.call('SADD', KEYS[6], ARGV[3]) == 1 then
  redis.call('PEXPIRE', KEYS[6], ${COUNTED_TTL_MS})
  redis.call('INCRBY', KEYS[1], ARGV[2])
  return 3
end
return 0
`;

/**
 * KEYS: used tokens, when they were loaded, tokens kept for a load, ids already counted. ARGV:
 * tokens, the time by which their usage events are surely in the usage table, a unique id (the
 * same when sent again). Adds them to a loaded count, once, unless it was loaded at or after that
 * time (from a table that held them): returns 1 when added, 0 when not. A count that is not
 * loaded keeps them aside for its load, which takes them in unless it started after that time
 * (returns 2), and marks the id counted (sent again after the load, they are not added again).
 * An id counted and not kept (added before a forget: the count set aside holds them) is not
 * kept again (returns 0).
 * A count without a load time was loaded before load times were kept, long before.
 */
const ADD_USAGE = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  local member = ARGV[3] .. ':' .. ARGV[1]
  if not redis.call('ZSCORE', KEYS[3], member) and redis.call('SISMEMBER', KEYS[4], ARGV[3]) == 1 then return 0 end
  redis.call('ZADD', KEYS[3], ARGV[2], member)
  redis.call('PEXPIRE', KEYS[3], ${PENDING_TTL_MS})
  redis.call('SADD', KEYS[4], ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ${COUNTED_TTL_MS})
  return 2
end
local loaded = redis.call('GET', KEYS[2])
if loaded and tonumber(loaded) >= tonumber(ARGV[2]) then return 0 end
if redis.call('SADD', KEYS[4], ARGV[3]) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[4], ${COUNTED_TTL_MS})
redis.call('INCRBY', KEYS[1], ARGV[1])
return 1
`;

type ScriptedRedis = Redis & {
  conductorAdmit(...args: (string | number)[]): Promise<number[]>;
  conductorSettle(...args: (string | number)[]): Promise<number>;
  conductorAddUsage(...args: (string | number)[]): Promise<number>;
  conductorAddRequests(...args: (string | number)[]): Promise<number>;
  conductorDropHold(...args: (string | number)[]): Promise<number>;
  conductorForget(...args: (string | number)[]): Promise<number>;
};

/**
 * An account change: the month's count is set aside for the load that replaces it (ADMIT keeps
 * at least it and what was added since), and its load time dropped. KEYS: used tokens, when they
 * were loaded, the count set aside. A count not loaded (forgotten again before its load) leaves
 * the one set aside at the first forget, which the settlements since are kept beside. The count
 * set aside lives as long as tokens kept for a load: by then the table has all it holds.
 */
const FORGET = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('RENAME', KEYS[1], KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ${PENDING_TTL_MS})
end
redis.call('DEL', KEYS[2])
return 1
`;

/**
 * The hold of one reservation dropped by its id alone (its size is not known: the admission's
 * answer was lost). KEYS: in-flight reservations, expired reservations not yet settled; ARGV: the
 * id. Returns how many members went (0 when the admission never ran).
 */
const DROP_HOLD = `
local prefix = ARGV[1] .. ':'
local removed = 0
for _, key in ipairs(KEYS) do
  for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    if string.sub(member, 1, #prefix) == prefix then
      redis.call('ZREM', key, member)
      removed = removed + 1
    end
  end
end
return removed
`;

/**
 * ioredis's errors for a command that may have been sent and not answered: its timeout, the
 * connection closing under it, or its queue flushed when the reconnection after such a close
 * failed (maxRetriesPerRequest).
 */
const UNANSWERED = /Command timed out|Connection is closed|max retries per request/;

/**
 * Requests admitted elsewhere (a stand-in while Redis failed) added to a rate counter. KEYS: the
 * counter; ARGV: how many. A counter this creates lives a window and a second, as ADMIT's do.
 */
const ADD_REQUESTS = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS + 1_000}) end
return count
`;

/**
 * The shared store (REDIS_URL): every instance admits against the same counters, atomically
 * in Lua. Keys carry the account in a hash tag so a cluster keeps them on one slot.
 */
export class RedisLimitStore implements SharedLimitStore {
  readonly #redis: ScriptedRedis;
  readonly #prefix: string;

  readonly #now: () => number;
  readonly #meteringLagMs: number;

  /**
   * `now` and `meteringLagMs` time a settlement's usage event (when it is surely in the usage
   * table), for a reservation Redis lost when it restarted empty.
   */
  constructor(redis: Redis, prefix: string, options: { now?: () => number; meteringLagMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#meteringLagMs = options.meteringLagMs ?? 2_000;
    const scripts = {
      conductorAdmit: [7, ADMIT],
      conductorSettle: [6, SETTLE],
      conductorAddUsage: [4, ADD_USAGE],
      conductorAddRequests: [1, ADD_REQUESTS],
      conductorDropHold: [2, DROP_HOLD],
      conductorForget: [3, FORGET],
    } as const;
    for (const [name, [numberOfKeys, lua]] of Object.entries(scripts)) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
    }
    this.#redis = redis as ScriptedRedis;
    this.#prefix = prefix;
  }

  #keys(accountId: string, month: string, window: number): [string, string, string, string, string, string, string, string] {
    const base = `${this.#prefix}limits:{${accountId}}`;
    return [
      `${base}:rpm:${window}`,
      `${base}:used:${month}`,
      `${base}:inflight:${month}`,
      `${base}:expired:${month}`,
      `${base}:loaded:${month}`,
      `${base}:pending:${month}`,
      `${base}:counted:${month}`,
      `${base}:forgotten:${month}`,
    ];
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    const window = windowStart(request.now);
    const month = request.quota?.month ?? 'none';
    const [rate, used, inflight, expired, loaded, pending, , forgotten] = this.#keys(request.accountId, month, window);
    const keys = [rate, used, inflight, expired, loaded, pending, forgotten];
    const id = request.reservationId ?? randomUUID();
    const ttl = request.quota ? Math.max(WINDOW_MS, request.quota.monthEndsAt - request.now + 7 * 86_400_000) : WINDOW_MS;
    const run = (usedFromDatabase: number) =>
      this.#redis.conductorAdmit(
        ...keys,
        request.requestsPerMinute,
        window + WINDOW_MS - request.now,
        request.quota ? tokenCount(request.quota.limit) : -1,
        tokenCount(request.quota?.minimum ?? 0),
        tokenCount(request.quota?.desired ?? 0),
        request.now,
        id,
        request.now + RESERVATION_TTL_MS,
        usedFromDatabase,
        Math.round(ttl),
        request.now - LATE_SETTLE_MS,
      );
    let result = await run(-1);
    if (result[0] === 2) result = await run(tokenCount(await request.loadUsedTokens()));
    switch (result[0]) {
      case 0:
        return { ok: false, reason: 'rate', retryAfterMs: Math.min(WINDOW_MS, result[1] ?? WINDOW_MS) };
      case 1:
        return { ok: false, reason: 'quota', used: result[1] ?? 0, reserved: result[2] ?? 0 };
      default: {
        const granted = result[1] ?? 0;
        return {
          ok: true,
          reservation: request.quota
            ? { id, accountId: request.accountId, month: request.quota.month, granted, admittedAt: request.now, headroom: result[2] ?? 0 }
            : null,
        };
      }
    }
  }

  /**
   * Sets the month's count aside (and drops when it was loaded), so the next admission loads it
   * from the usage table; settlements meanwhile are kept aside for that load as after any expiry.
   * The load keeps at least the count set aside plus those settlements: the table may not have
   * the tokens settled in the last metering interval before the forget yet (see ADMIT). One round
   * trip, run by the instance that made the change only: each forget costs a load.
   */
  async forgetQuota(accountId: string, month: string, where: ForgetScope = 'shared'): Promise<void> {
    if (where === 'instance') return;
    const [, used, , , loaded, , , forgotten] = this.#keys(accountId, month, 0);
    await this.#redis.conductorForget(used, loaded, forgotten);
  }

  /**
   * `inTableBy`: when the request's usage event is surely in the usage table (default: the
   * metering lag from now). A settlement sent again later passes the time of the first attempt:
   * the request finished then, and a count loaded since may hold its tokens already.
   */
  async settle(reservation: Reservation, usedTokens: number, inTableBy = this.#now() + this.#meteringLagMs): Promise<void> {
    const [, used, inflight, expired, loaded, pending, counted] = this.#keys(reservation.accountId, reservation.month, 0);
    await this.#redis.conductorSettle(
      used,
      inflight,
      expired,
      loaded,
      pending,
      counted,
      `${reservation.id}:${reservation.granted}`,
      tokenCount(usedTokens),
      reservation.id,
      Math.round(reservation.admittedAt),
      Math.round(inTableBy),
    );
  }

  /**
   * Whether the tokens were added (true), found counted (false), or kept aside for the count's
   * load ('pending'). `id` names them: sent again with the same id, they count once.
   */
  async addUsage(accountId: string, month: string, tokens: number, inTableBy: number, id: string): Promise<boolean | 'pending'> {
    const [, used, , , loaded, pending, counted] = this.#keys(accountId, month, 0);
    const result = await this.#redis.conductorAddUsage(used, loaded, pending, counted, tokenCount(tokens), Math.round(inTableBy), id);
    return result === 2 ? 'pending' : result === 1;
  }

  async addRequests(accountId: string, window: number, count: number): Promise<void> {
    const [rate] = this.#keys(accountId, 'none', window);
    await this.#redis.conductorAddRequests(rate, Math.max(0, Math.round(count)));
  }

  /** Drops the hold of reservation `id`, whatever its size, if Redis has it (its admission's answer was lost). */
  async dropHold(accountId: string, month: string, id: string): Promise<void> {
    const [, , inflight, expired] = this.#keys(accountId, month, 0);
    await this.#redis.conductorDropHold(inflight, expired, id);
  }

  /** A command sent whose answer did not come (timed out, or the connection closed): Redis may have run it. */
  mayHaveRun(error: unknown): boolean {
    if (!(error instanceof Error) || error instanceof ReplyError) return false;
    return error.name === 'MaxRetriesPerRequestError' || UNANSWERED.test(error.message);
  }

  /** A reply no retry can change: a key of the wrong type, a value that is not a number, a script error. */
  refuses(error: unknown): boolean {
    if (!(error instanceof ReplyError)) return false;
    const message = String((error as Error).message);
    return PERMANENT_REPLY.test(message) && !TRANSIENT_REPLY.test(message);
  }
}

/** Redis 6 wraps an error raised in a script as `ERR Error running script …: <the error>`, transient ones too. */
const TRANSIENT_REPLY = /\b(LOADING|BUSY|TRYAGAIN|MASTERDOWN|CLUSTERDOWN|READONLY|OOM|NOREPLICAS|MISCONF)\b|max number of clients/;
const PERMANENT_REPLY = /\bWRONGTYPE\b|not an integer|out of range|user_script|Error running script/;
