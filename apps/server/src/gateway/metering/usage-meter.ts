import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { UsageEventInput } from '../../modules/usage/usage.writer.ts';
import { touchApiKeys } from './key-usage.repository.ts';
import { writeUsageBatch } from './usage-batch.repository.ts';

export interface UsageMeterOptions {
  db: Database;
  log: FastifyBaseLogger;
  flushIntervalMs: number;
  /** Flush as soon as this many events wait. */
  batchSize?: number;
  /** Events kept while the database is failing; the oldest are dropped past it. */
  maxBuffered?: number;
}

/**
 * Events per statement unless configured: on PostgreSQL 2,000 (fewer statements and round trips:
 * +8-10 % gateway throughput at 15-17k requests/s against 500, docs/benchmarks.md); on PGlite 500,
 * since on one CPU its writes run on the request thread: 2,000 would hold it 10 ms a flush instead
 * of 2.7 to save ~0.4 µs of CPU per event (`npm run bench:metering`).
 */
export function usageBatchSize(configured: number | undefined, engine: 'pglite' | 'postgres'): number {
  return configured ?? (engine === 'postgres' ? 2_000 : 500);
}

/** During an outage dropped events are logged at most this often, with the count since the last line. */
const DROP_LOG_INTERVAL_MS = 10_000;

/** "Last used" is shown to the minute; stamping more often would only add writes. */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * Usage metering off the hot path: `record` only appends to a buffer; a timer (or a full
 * batch, or closing the app) writes what is buffered in batches of `batchSize` (the rows
 * `recordUsageEvents` writes) and stamps the keys' last use. One flush runs at a time; a failed
 * batch is retried event by event so one bad row (an account deleted meanwhile) cannot block the
 * others, and a batch of which nothing could be written keeps itself and the rest for later. An
 * event whose request id is already stored (a batch committed, but its acknowledgement lost) counts
 * as written: it is neither written again nor retried.
 */
export class UsageMeter {
  readonly #options: Required<UsageMeterOptions>;
  #buffer: UsageEventInput[] = [];
  /** Keys used since the last stamp, and when each was last stamped (stamps are at most once a minute per key). */
  #lastUse = new Map<string, number>();
  #stamped = new Map<string, number>();
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout;
  #droppedUnlogged = 0;
  #lastDropLog = Number.NEGATIVE_INFINITY;

  constructor(options: UsageMeterOptions) {
    this.#options = { batchSize: 500, maxBuffered: 50_000, ...options };
    this.#timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.#timer.unref();
  }

  record(event: UsageEventInput): void {
    if (this.#buffer.length >= this.#options.maxBuffered) {
      // A flush is stuck (the database is down): keep the newest events, as a re-queue does,
      // dropping the oldest a batch at a time so an outage does not cost a shift per request.
      const excess = Math.min(this.#buffer.length, Math.max(1, this.#options.batchSize));
      this.#buffer.splice(0, excess);
      this.#dropped(excess);
    }
    this.#buffer.push(event);
    if (event.apiKeyId) {
      // The latest use wins: a long stream recorded after a later short request must not move the stamp back.
      const at = event.createdAt.getTime();
      if (at > (this.#lastUse.get(event.apiKeyId) ?? 0)) this.#lastUse.set(event.apiKeyId, at);
    }
    if (this.#buffer.length >= this.#options.batchSize && !this.#flushing) void this.flush();
  }

  get pending(): number {
    return this.#buffer.length;
  }

  /** Writes everything buffered so far (waits for a flush already running first). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#buffer.length === 0 && this.#lastUse.size === 0) return;
    this.#flushing = this.#write().finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
    this.#reportDropped();
  }

  async #write(): Promise<void> {
    const pending = this.#buffer;
    const lastUse = this.#lastUse;
    this.#buffer = [];
    this.#lastUse = new Map();
    const { db, log, batchSize } = this.#options;
    // In batches of batchSize, so the first flush after an outage (up to maxBuffered events) is
    // not one huge statement, with a turn of the event loop between them.
    const size = Math.max(1, batchSize);
    // Events to try again at the next flush, in the order they were recorded.
    const retry: UsageEventInput[] = [];
    for (let start = 0; start < pending.length; start += size) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const batch = pending.slice(start, start + size);
      const failed = await this.#writeBatch(batch);
      retry.push(...failed);
      if (failed.length === batch.length) {
        // Not one event of this batch could be written (the database is unreachable): keep the
        // rest for the next flush too instead of trying them event by event now.
        retry.push(...pending.slice(start + size));
        break;
      }
      this.#reportDropped();
    }
    if (retry.length > 0) this.#requeue(retry);
    const due: { keyId: string; at: Date }[] = [];
    for (const [keyId, at] of lastUse) {
      if (at - (this.#stamped.get(keyId) ?? 0) < LAST_USE_RESOLUTION_MS) continue;
      due.push({ keyId, at: new Date(at) });
    }
    try {
      await touchApiKeys(db, due);
      if (this.#stamped.size > 100_000) this.#stamped.clear();
      for (const { keyId, at } of due) this.#stamped.set(keyId, at.getTime());
    } catch (error) {
      log.warn({ err: error }, 'could not stamp API keys last use');
      // Stamped on a later flush: put the uses back unless a newer one arrived meanwhile.
      for (const { keyId, at } of due) if (at.getTime() > (this.#lastUse.get(keyId) ?? 0)) this.#lastUse.set(keyId, at.getTime());
    }
  }

  /**
   * One batch; a failed batch is retried event by event so one bad row (an account deleted
   * meanwhile) cannot block the others, until an event fails for another reason than its data.
   * Returns the events to try again later.
   */
  async #writeBatch(batch: UsageEventInput[]): Promise<UsageEventInput[]> {
    const { db, log } = this.#options;
    try {
      await writeUsageBatch(db, batch);
      return [];
    } catch (error) {
      // A duplicate request id: the batch was already written (its commit went unacknowledged).
      if (isUniqueViolation(error)) log.info({ events: batch.length }, 'usage batch holds events already written; retrying event by event');
      else log.warn({ err: error, events: batch.length }, 'usage batch failed; retrying event by event');
    }
    for (const [index, event] of batch.entries()) {
      try {
        await writeUsageBatch(db, [event]);
      } catch (eventError) {
        // Already written (request ids are unique): an earlier attempt committed but its
        // acknowledgement was lost. The event and its rollup are one transaction, both there.
        if (isUniqueViolation(eventError)) continue;
        // The account no longer exists, or the event holds data PostgreSQL refuses (class 22):
        // neither can ever be written, so retrying would only repeat the failure every flush.
        if (isUnwritable(eventError)) {
          if (!isForeignKeyViolation(eventError))
            log.error({ err: eventError, requestId: event.requestId }, 'usage event dropped: invalid data');
          continue;
        }
        // Any other failure is the database's (down, timing out): this event and the rest of the
        // batch wait for the next flush instead of costing a failed attempt (or a time-out) each.
        return batch.slice(index);
      }
    }
    return [];
  }

  #requeue(events: UsageEventInput[]): void {
    this.#buffer = [...events, ...this.#buffer];
    const excess = this.#buffer.length - this.#options.maxBuffered;
    if (excess > 0) {
      this.#buffer.splice(0, excess);
      this.#dropped(excess);
    }
  }

  /**
   * Counts dropped events; logs an error at most once per DROP_LOG_INTERVAL_MS (about 2 a second
   * otherwise at 1,000 requests/s), and the rest once a write succeeds again or the meter closes.
   */
  #dropped(count: number): void {
    this.#droppedUnlogged += count;
    if (performance.now() - this.#lastDropLog >= DROP_LOG_INTERVAL_MS) this.#reportDropped();
  }

  #reportDropped(): void {
    if (this.#droppedUnlogged === 0) return;
    this.#lastDropLog = performance.now();
    this.#options.log.error({ dropped: this.#droppedUnlogged }, 'usage buffer full; oldest events dropped');
    this.#droppedUnlogged = 0;
  }
}

function sqlState(error: unknown): string | undefined {
  return (
    (error as { code?: string; cause?: { code?: string } } | null)?.code ?? (error as { cause?: { code?: string } } | null)?.cause?.code
  );
}

/** `unique_violation`: only `usage_events.request_id` can raise it (the rollup upserts). */
function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === '23503';
}

/** A foreign-key violation, or SQLSTATE class 22 (data exception: a value the column or JSON cannot hold). */
function isUnwritable(error: unknown): boolean {
  const code = sqlState(error);
  return code === '23503' || (typeof code === 'string' && code.startsWith('22'));
}
