/**
 * The embedded PGlite in a thread of its own (started by `pglite-thread.ts`): the database's
 * WebAssembly work, a metering batch or a 90-day dashboard query, runs here instead of on the
 * thread that serves requests. It answers one message per call: `query`, `exec`, a transaction's
 * `begin` / `commit` / `rollback` (its statements name it), and `close`.
 *
 * Loaded by Node directly (TypeScript sources in development, the bundle's `pglite-worker.js` in
 * production), so this file imports nothing but PGlite and Node.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type messages, PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

export interface WorkerQueryOptions {
  rowMode?: 'array' | 'object';
  /** Type OIDs whose values are returned as PostgreSQL's text: the caller parses them. */
  rawTypes?: number[];
  paramTypes?: number[];
  /** A COPY FROM blob: Node's Blob crosses as it is, so the call is posted at once, in the caller's order. */
  blob?: Blob;
  /** The caller listens for notices: they come back with the answer. */
  notices?: boolean;
}

/** A notice as it crosses: PostgreSQL's fields. */
export type WorkerNotice = Record<string, unknown>;

export type WorkerCall =
  | { id: number; method: 'query'; sql: string; params: unknown[]; options: WorkerQueryOptions; tx?: number }
  | { id: number; method: 'exec'; sql: string; options: WorkerQueryOptions; tx?: number }
  | { id: number; method: 'begin' }
  | { id: number; method: 'commit' | 'rollback'; tx: number }
  | { id: number; method: 'close' };

export type WorkerAnswer =
  | { id: number; result: unknown; notices?: WorkerNotice[] }
  | { id: number; error: { message: string; name: string; fields: Record<string, unknown> }; notices?: WorkerNotice[] }
  | { id: 0; ready: true }
  | { id: 0; failed: string };

interface OpenTransaction {
  tx: Transaction;
  end(outcome: 'commit' | 'rollback'): void;
  done: Promise<void>;
}

/** Thrown inside PGlite's transaction callback to end it with ROLLBACK. */
class RollbackRequested extends Error {}

const keepText = (value: string) => value;

function pgliteOptions(options: WorkerQueryOptions, notices: WorkerNotice[] | undefined): QueryOptions {
  const parsers: Record<number, (value: string) => string> = {};
  for (const oid of options.rawTypes ?? []) parsers[oid] = keepText;
  return {
    ...(options.rowMode ? { rowMode: options.rowMode } : {}),
    ...(options.rawTypes ? { parsers } : {}),
    ...(options.paramTypes ? { paramTypes: options.paramTypes } : {}),
    ...(options.blob ? { blob: options.blob } : {}),
    ...(notices ? { onNotice: (notice: messages.NoticeMessage) => notices.push({ ...notice }) } : {}),
  };
}

/** A result as it crosses to the other thread: a blob written by `COPY … TO '/dev/blob'` as bytes. */
async function portable<T extends Results<unknown>>(result: T): Promise<T | (Omit<T, 'blob'> & { blob: ArrayBuffer })> {
  if (!result.blob) return result;
  return { ...result, blob: await result.blob.arrayBuffer() };
}

/** An error as it crosses: its message, name and every field PostgreSQL sent (code, detail, constraint…). */
function portableError(error: unknown): { message: string; name: string; fields: Record<string, unknown> } {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // a value that cannot cross (the query's options) is left behind
    }
  }
  return { message: error.message, name: error.name, fields };
}

async function serve(port: NonNullable<typeof parentPort>, dataDir: string | undefined): Promise<void> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;

  const target = (tx: number | undefined): PGlite | Transaction => {
    if (tx === undefined) return db;
    const open = transactions.get(tx);
    if (!open) throw new Error(`Transaction ${tx} is not open.`);
    return open.tx;
  };

  const begin = (): Promise<number> =>
    new Promise<number>((started, failed) => {
      const id = nextTransaction++;
      let end: (outcome: 'commit' | 'rollback') => void = () => undefined;
      const outcome = new Promise<'commit' | 'rollback'>((resolve) => {
        end = resolve;
      });
      const done = db
        .transaction(async (tx) => {
          transactions.set(id, { tx, end, done });
          started(id);
          if ((await outcome) === 'rollback') throw new RollbackRequested();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RollbackRequested)) throw error;
        })
        .finally(() => transactions.delete(id));
      // BEGIN itself failed: the callback never ran.
      done.catch(failed);
    });

  const finish = async (tx: number, outcome: 'commit' | 'rollback'): Promise<void> => {
    const open = transactions.get(tx);
    if (!open) throw new Error(`Transaction ${tx} is not open.`);
    open.end(outcome);
    await open.done;
  };

  const answer = async (call: WorkerCall, notices: WorkerNotice[] | undefined): Promise<unknown> => {
    switch (call.method) {
      case 'query':
        return portable(await target(call.tx).query(call.sql, call.params, pgliteOptions(call.options, notices)));
      case 'exec':
        return Promise.all((await target(call.tx).exec(call.sql, pgliteOptions(call.options, notices))).map(portable));
      case 'begin':
        return begin();
      case 'commit':
      case 'rollback':
        return finish(call.tx, call.method);
      case 'close':
        await db.close();
        return undefined;
    }
  };

  port.on('message', (call: WorkerCall) => {
    const notices = 'options' in call && call.options.notices ? [] : undefined;
    const heard = notices ? { notices } : {};
    answer(call, notices).then(
      (result) => {
        const transfer =
          result && typeof result === 'object' && 'blob' in result && result.blob instanceof ArrayBuffer ? [result.blob] : [];
        port.postMessage({ id: call.id, result, ...heard } satisfies WorkerAnswer, transfer);
        // Closed: with its port closed the thread's event loop empties and it ends by itself.
        if (call.method === 'close') port.close();
      },
      (error: unknown) => port.postMessage({ id: call.id, error: portableError(error), ...heard } satisfies WorkerAnswer),
    );
  });
  port.postMessage({ id: 0, ready: true } satisfies WorkerAnswer);
}

if (parentPort) {
  const port = parentPort;
  serve(port, (workerData as { dataDir?: string } | undefined)?.dataDir).catch((error: unknown) => {
    port.postMessage({ id: 0, failed: error instanceof Error ? error.message : String(error) } satisfies WorkerAnswer);
  });
}
