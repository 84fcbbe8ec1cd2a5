import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results } from '@electric-sql/pglite';
import type { WorkerAnswer, WorkerCall, WorkerNotice, WorkerQueryOptions } from './pglite-worker.ts';

/** The worker's module: the TypeScript source in development and tests, the bundle's file in production. */
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);

/** How long a thread whose database has closed may take to end by itself before it is terminated. */
const CLOSE_GRACE_MS = 5_000;

type Pending = { resolve(value: unknown): void; reject(error: Error): void; onNotice?: QueryOptions['onNotice'] };
type Call = WorkerCall extends infer C ? (C extends WorkerCall ? Omit<C, 'id'> : never) : never;

/** The part of PGlite's client that drizzle and the usage writer use. */
export interface EmbeddedClient {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface EmbeddedTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** PostgreSQL's error as the worker described it, rebuilt as PGlite's own `DatabaseError` (code, detail, constraint…). */
function rebuiltError(error: { message: string; name: string; fields: Record<string, unknown> }): Error {
  const rebuilt = error.name === 'error' ? Object.create(messages.DatabaseError.prototype) : new Error(error.message);
  Object.assign(rebuilt, error.fields, { message: error.message, name: error.name });
  Error.captureStackTrace(rebuilt, rebuiltError);
  return rebuilt as Error;
}

/** A notice from the worker, rebuilt as PGlite's own `NoticeMessage`. */
function rebuiltNotice(notice: WorkerNotice): messages.NoticeMessage {
  return Object.assign(Object.create(messages.NoticeMessage.prototype) as messages.NoticeMessage, notice);
}

/**
 * Options as they cross to the worker: parsers are functions, so the worker returns those types'
 * values as text and they are parsed here; a blob crosses as it is; notices come back with the
 * answer. Synchronous, so that a call is posted when it is made and the worker runs calls in the
 * order they were made, as PGlite's locks do in-thread.
 */
function portableOptions(options: QueryOptions | undefined): WorkerQueryOptions {
  if (options?.serializers) throw new Error('The embedded database thread does not take custom serializers.');
  return {
    ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
    ...(options?.parsers ? { rawTypes: Object.keys(options.parsers).map(Number) } : {}),
    ...(options?.paramTypes ? { paramTypes: options.paramTypes } : {}),
    ...(options?.blob ? { blob: options.blob } : {}),
    ...(options?.onNotice ? { notices: true } : {}),
  };
}

/** A result from the worker with the caller's parsers applied and its blob rebuilt. */
function localResult<T>(result: Results<T> & { blob?: unknown }, options: QueryOptions | undefined): Results<T> {
  const parsers = options?.parsers;
  if (parsers && result.rows.length > 0) {
    // In object rows a name's value is its last column's (PGlite builds rows with Object.fromEntries).
    const lastOfName = new Map(result.fields.map((field, index) => [field.name, index]));
    // PGlite's parseType calls a parser with the value and its type OID (its declared type shows only the value).
    const parsed = result.fields
      .map((field, index) => ({
        index,
        name: field.name,
        type: field.dataTypeID,
        parse: parsers[field.dataTypeID] as ((value: string, typeId: number) => unknown) | undefined,
      }))
      .filter((field) => field.parse);
    if (parsed.length > 0) {
      for (const row of result.rows as unknown[]) {
        for (const { index, name, type, parse } of parsed) {
          if (!parse) continue;
          if (Array.isArray(row)) {
            if (row[index] !== null) row[index] = parse(row[index] as string, type);
          } else if (lastOfName.get(name) === index) {
            const record = row as Record<string, unknown>;
            if (record[name] !== null) record[name] = parse(record[name] as string, type);
          }
        }
      }
    }
  }
  if (!(result.blob instanceof ArrayBuffer)) return result;
  return { ...result, blob: new Blob([result.blob]) };
}

/**
 * The embedded PGlite running in a worker thread (`pglite-worker.ts`), behind the part of
 * PGlite's client the server uses: queries, multi-statement `exec` (with COPY blobs) and
 * transactions. The database's WebAssembly work then never blocks the event loop that serves
 * requests: a metering batch of 500 events, or a heavy dashboard query, runs beside the gateway
 * instead of stalling it. PGlite's own locks, inside the worker, keep its one connection's
 * statements and transactions in order as they do in-thread.
 */
export class PGliteThread implements EmbeddedClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failure: Error | undefined;
  #closing: Promise<void> | undefined;

  private constructor(worker: Worker, onStop: ((error: Error) => void) | undefined) {
    this.#worker = worker;
    worker.on('message', (answer: WorkerAnswer) => {
      const pending = this.#pending.get(answer.id);
      if (!pending) return;
      this.#pending.delete(answer.id);
      try {
        if ('notices' in answer) for (const notice of answer.notices ?? []) pending.onNotice?.(rebuiltNotice(notice));
      } catch (error) {
        pending.reject(error as Error);
        return;
      }
      if ('error' in answer) pending.reject(rebuiltError(answer.error));
      else if ('result' in answer) pending.resolve(answer.result);
    });
    const stop = (error: Error) => {
      const first = this.#failure === undefined;
      this.#failure ??= error;
      for (const pending of this.#pending.values()) pending.reject(this.#failure);
      this.#pending.clear();
      // Not asked for by close(): the database is gone for this process.
      if (first && !this.#closing) onStop?.(this.#failure);
    };
    worker.on('error', (error) => stop(new Error(`The embedded database thread failed: ${error.message}`)));
    worker.on('exit', (code) => stop(new Error(`The embedded database thread stopped (exit code ${code}).`)));
  }

  /**
   * Starts the worker and waits for its database; `dataDir` undefined keeps the database in
   * memory. `onStop` hears of the worker ending other than by close() (a crash, an out-of-memory
   * abort): every call fails from then on.
   */
  static async open(dataDir: string | undefined, onStop?: (error: Error) => void): Promise<PGliteThread> {
    const worker = new Worker(WORKER_URL, { workerData: { dataDir } });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (answer: WorkerAnswer) => {
        if ('ready' in answer) resolve();
        else if ('failed' in answer) reject(new Error(`The embedded database did not start: ${answer.failed}`));
        else return;
        cleanup();
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`The embedded database thread stopped while starting (exit code ${code}).`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return new PGliteThread(worker, onStop);
  }

  /**
   * Posts a call at once (the worker answers in the order calls were made). While closing, only
   * an open transaction's calls go on: PGlite's close waits for that transaction to end.
   */
  #call<T>(call: Call, onNotice?: QueryOptions['onNotice']): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closing && call.method !== 'close' && !('tx' in call && call.tx !== undefined)) {
      return Promise.reject(new Error('The embedded database is closed.'));
    }
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, ...(onNotice ? { onNotice } : {}) });
      try {
        this.#worker.postMessage({ ...call, id });
      } catch (error) {
        // A value that cannot cross (a parameter with a function): the call never left.
        this.#pending.delete(id);
        reject(error as Error);
      }
    });
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    const portable = portableOptions(options);
    const result = await this.#call<Results<T>>(
      { method: 'query', sql, params, options: portable, ...(tx === undefined ? {} : { tx }) },
      options?.onNotice,
    );
    return localResult(result, options);
  }

  async exec(sql: string, options?: QueryOptions, tx?: number): Promise<Results[]> {
    const portable = portableOptions(options);
    const results = await this.#call<Results[]>(
      { method: 'exec', sql, options: portable, ...(tx === undefined ? {} : { tx }) },
      options?.onNotice,
    );
    return results.map((result) => localResult(result, options));
  }

  /**
   * A transaction as PGlite runs it: BEGIN, the callback's statements, then COMMIT, or ROLLBACK
   * when the callback throws or calls `rollback()`. Other statements wait for it in the worker.
   */
  async transaction<T>(callback: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>({ method: 'begin' });
    let closed = false;
    const end = async (outcome: 'commit' | 'rollback') => {
      if (closed) return;
      closed = true;
      await this.#call({ method: outcome, tx: id });
    };
    const tx: EmbeddedTransaction = {
      query: (sql, params, options) => (closed ? Promise.reject(new Error('Transaction is closed')) : this.query(sql, params, options, id)),
      exec: (sql, options) => (closed ? Promise.reject(new Error('Transaction is closed')) : this.exec(sql, options, id)),
      rollback: () => end('rollback'),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await end('rollback').catch(() => undefined);
      throw error;
    }
    await end('commit');
    return result;
  }

  /**
   * Closes the database (PGlite writes out its files) and waits for the thread to end. A thread
   * whose database closed ends by itself; it is terminated only when the close failed or it has
   * not ended within CLOSE_GRACE_MS. (Terminating a thread that is busy in WebAssembly can abort
   * the process inside V8, a failed check while freeing its WebAssembly code, reported upstream as
   * nodejs/node#64500; our tests hit it twice, both times terminating the thread mid-query.)
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const worker = this.#worker;
      if (this.#failure) {
        await worker.terminate();
        return;
      }
      const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      let grace: NodeJS.Timeout | undefined;
      try {
        await this.#call({ method: 'close' });
        await Promise.race([ended, new Promise<void>((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      } finally {
        clearTimeout(grace);
        // Resolves at once for a thread that has ended.
        await worker.terminate();
      }
    })();
    return this.#closing;
  }
}
