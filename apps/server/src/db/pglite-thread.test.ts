import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messages, PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { parseEnv } from '../config/env.ts';
import { type DatabaseHandle, embeddedClient, openDatabase, pgliteThread } from './client.ts';
import { PGliteThread } from './pglite-thread.ts';
import { users } from './schema/index.ts';

/** Event-loop delay while `work` runs: the longest gap between 1 ms timer ticks. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stallMs: number; workMs: number }> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work();
  const workMs = performance.now() - started;
  clearInterval(timer);
  return { stallMs: Math.max(longest, performance.now() - last), workMs };
}

/** A query that keeps PostgreSQL busy for a while: a sort of generated rows, about 100-300 ms here. */
const HEAVY = 'select count(*) from (select md5(i::text) as h from generate_series(1, 300000) as i order by h) as sorted';

describe('PGliteThread: the embedded database in a worker thread', () => {
  let thread: PGliteThread;
  beforeAll(async () => {
    thread = await PGliteThread.open(undefined);
    await thread.exec(
      'create table items (id serial primary key, name text unique not null, born timestamptz, payload bytea, amount bigint)',
    );
  });
  afterAll(async () => {
    await thread.close();
  });

  it('runs parameterised queries in both row modes with PGlite types', async () => {
    await thread.query('insert into items (name, born, payload, amount) values ($1, $2, $3, $4)', [
      'first',
      '2026-01-02T03:04:05Z',
      new Uint8Array([1, 2, 3]),
      9_007_199_254_740_993n,
    ]);
    const objects = await thread.query<{ name: string; born: Date; payload: Uint8Array; amount: bigint }>(
      'select name, born, payload, amount from items where name = $1',
      ['first'],
    );
    expect(objects.rows).toHaveLength(1);
    expect(objects.rows[0]?.born).toEqual(new Date('2026-01-02T03:04:05Z'));
    expect([...(objects.rows[0]?.payload ?? [])]).toEqual([1, 2, 3]);
    expect(objects.rows[0]?.amount).toBe(9_007_199_254_740_993n);
    const arrays = await thread.query<unknown[]>('select name, 1 + 1 from items', [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([['first', 2]]);
    expect(arrays.fields.map((field) => field.name)).toEqual(['name', '?column?']);
  });

  it('applies the caller’s parsers to the values the worker leaves as text', async () => {
    const result = await thread.query<{ born: string }>(
      "select '2026-05-06 07:08:09+00'::timestamptz as born, null::timestamptz as missing",
      [],
      {
        parsers: { 1184: (text: string) => `parsed:${text}` },
      },
    );
    expect(result.rows[0]).toEqual({ born: 'parsed:2026-05-06 07:08:09+00', missing: null });
  });

  it('answers PostgreSQL errors as PGlite’s DatabaseError with their code and constraint', async () => {
    const error = await thread.query("insert into items (name) values ('first')").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_name_key' });
    expect((error as Error).message).toContain('duplicate key');
    // The connection is usable after the error.
    expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('commits a transaction and rolls one back when its callback throws', async () => {
    await thread.transaction(async (tx) => {
      await tx.query("insert into items (name) values ('committed')");
    });
    await expect(
      thread.transaction(async (tx) => {
        await tx.query("insert into items (name) values ('rolled-back')");
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    const names = (await thread.query<{ name: string }>('select name from items order by id')).rows.map((row) => row.name);
    expect(names).toContain('committed');
    expect(names).not.toContain('rolled-back');
  });

  it('keeps other statements out of an open transaction until it ends', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = thread.transaction(async (tx) => {
      await tx.query("insert into items (name) values ('inside')");
      await held;
      await tx.query("update items set name = 'inside-done' where name = 'inside'");
    });
    // Issued while the transaction is open: it must not see the uncommitted row, nor run inside it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = thread.query<{ name: string }>("select name from items where name like 'inside%'");
    let outsideDone = false;
    void outside.then(() => {
      outsideDone = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outsideDone).toBe(false);
    release();
    await transaction;
    expect((await outside).rows).toEqual([{ name: 'inside-done' }]);
  });

  it('carries a COPY blob in and out', async () => {
    await thread.exec('create table copied (a int, b text)');
    await thread.exec("copy copied from '/dev/blob' with (format csv)", { blob: new Blob(['1,one\n2,two\n']) });
    const out = await thread.query("copy (select * from copied order by a) to '/dev/blob' with (format csv)");
    expect(await out.blob?.text()).toBe('1,one\n2,two\n');
  });

  it('does not block the event loop while the database works', async () => {
    const inThread = new PGlite();
    await inThread.waitReady;
    try {
      const blocking = await longestStall(() => inThread.query(HEAVY));
      const beside = await longestStall(() => thread.query(HEAVY));
      // In-thread the loop waits for the whole query; beside it, timers keep firing.
      expect(blocking.stallMs).toBeGreaterThan(blocking.workMs * 0.8);
      expect(beside.stallMs).toBeLessThan(Math.max(beside.workMs * 0.5, 50));
    } finally {
      await inThread.close();
    }
  });

  it('rejects calls after close', async () => {
    const other = await PGliteThread.open(undefined);
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/closed|stopped/);
  });
});

/** Opens with `open`, catching the worker it starts (its first postMessage's receiver). */
async function withWorker<T>(open: () => Promise<T>): Promise<{ opened: T; worker: Worker }> {
  const posted = vi.spyOn(Worker.prototype, 'postMessage');
  try {
    const opened = await open();
    await vi.waitFor(() => expect(posted.mock.contexts.length).toBeGreaterThan(0));
    return { opened, worker: posted.mock.contexts[0] as Worker };
  } finally {
    posted.mockRestore();
  }
}

describe('when the worker stops on its own', () => {
  it('tells onStop once (and not on close)', async () => {
    const stopped: Error[] = [];
    const { opened: thread, worker } = await withWorker(async () => {
      const opened = await PGliteThread.open(undefined, (error) => stopped.push(error));
      await opened.query('select 1');
      return opened;
    });
    await worker.terminate();
    await vi.waitFor(() => expect(stopped).toHaveLength(1));
    expect(stopped[0]?.message).toMatch(/stopped/);
    await thread.close();
    expect(stopped).toHaveLength(1);

    const quiet: Error[] = [];
    const closed = await PGliteThread.open(undefined, (error) => quiet.push(error));
    await closed.close();
    expect(quiet).toEqual([]);
  });

  it('ends by itself once its database has closed: close does not have to terminate it', async () => {
    const { opened: thread, worker } = await withWorker(async () => {
      const opened = await PGliteThread.open(undefined);
      await opened.query('select 1');
      return opened;
    });
    const exitCode = new Promise<number>((resolve) => worker.once('exit', resolve));
    await thread.close();
    // A terminated thread exits with 1; one whose event loop emptied, with 0.
    expect(await exitCode).toBe(0);
    await expect(thread.query('select 1')).rejects.toThrow(/closed|stopped/);
  });

  it('the app logs it as fatal and calls onFatal (the server then exits with an error)', async () => {
    const onFatal = vi.fn();
    const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_ACCOUNT: 'off', PGLITE_THREAD: 'worker' });
    const { opened: app, worker } = await withWorker(() => buildApp({ env, inMemoryDatabase: true, serveWeb: false, onFatal }));
    try {
      // Answered: the thread is idle, not inside a WebAssembly call, when it is stopped.
      expect(await app.context.database.ping()).toBe(true);
      await worker.terminate();
      await vi.waitFor(() => expect(onFatal).toHaveBeenCalledTimes(1));
      expect(await app.context.database.ping()).toBe(false);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('PGLITE_THREAD', () => {
  it('auto runs the worker only when the process may use more than one CPU; worker and main are taken as given', () => {
    expect(pgliteThread('auto', 1)).toBe('main');
    expect(pgliteThread('auto', 2)).toBe('worker');
    expect(pgliteThread('worker', 1)).toBe('worker');
    expect(pgliteThread('main', 8)).toBe('main');
  });
});

describe('openDatabase on the worker thread, through drizzle', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'conductor-pglite-thread-'));
    handle = await openDatabase({ dataDir, thread: 'worker' });
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates, writes and reads through drizzle, and exposes the embedded client', async () => {
    expect(await handle.ping()).toBe(true);
    expect(embeddedClient(handle.db)).toBeInstanceOf(PGliteThread);
    const id = crypto.randomUUID();
    await handle.db.insert(users).values({ id, email: `${id}@example.com`, name: 'Thread', authMethod: 'email' });
    const [row] = await handle.db.select().from(users).where(eq(users.id, id));
    expect(row?.email).toBe(`${id}@example.com`);
    expect(row?.createdAt).toBeInstanceOf(Date);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.update(users).set({ name: 'Changed' }).where(eq(users.id, id));
        tx.rollback();
      }),
    ).rejects.toThrow();
    const [after] = await handle.db.select({ name: users.name }).from(users).where(eq(users.id, id));
    expect(after?.name).toBe('Thread');
  });

  it('reads every column type as PGlite in this thread reads it', async () => {
    const inThread = await openDatabase({ thread: 'main' });
    try {
      const probe = sql`select 1::int2 as small, 2::int4 as int, 3::int8 as big, 1.5::numeric as exact, 2.5::float8 as float, true as flag,
        'text' as text, '2026-01-02 03:04:05+00'::timestamptz as stamp, '2026-01-02 03:04:05'::timestamp as local, '2026-01-02'::date as day,
        '1 day'::interval as span, '{"a":[1,2]}'::jsonb as doc, '{1,2}'::int[] as ints, '{2026-01-02}'::date[] as days,
        '\\x0102'::bytea as bytes, null::text as nothing, gen_random_uuid() is not null as uuid`;
      const local = await inThread.db.execute(probe);
      const beside = await handle.db.execute(probe);
      expect(beside.rows).toEqual(local.rows);
      expect(beside.fields.map((field) => [field.name, field.dataTypeID])).toEqual(
        local.fields.map((field) => [field.name, field.dataTypeID]),
      );
    } finally {
      await inThread.close();
    }
  });

  it('keeps the data on disk across a restart', async () => {
    const id = crypto.randomUUID();
    await handle.db.insert(users).values({ id, email: `${id}@example.com`, name: 'Durable', authMethod: 'email' });
    await handle.close();
    handle = await openDatabase({ dataDir, thread: 'worker' });
    const found = await handle.db.execute(sql`select name from ${users} where id = ${id}`);
    expect(found.rows).toEqual([{ name: 'Durable' }]);
  });
});
