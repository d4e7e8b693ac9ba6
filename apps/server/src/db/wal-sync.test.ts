import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { transactionWithDeferredSync } from './dialect.js';
import { openDb } from './index.js';
import { coalescedSync, isWalSynced, WalSyncedSqliteDialect } from './wal-sync.js';

/** A sync that finishes when the test says so; counts its runs. */
function manualSync() {
  const runs: (() => void)[] = [];
  const sync = coalescedSync(() => new Promise<void>((resolve) => runs.push(resolve)));
  return { sync, runs };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('coalescedSync', () => {
  it('runs one sync at a time, and callers that arrive meanwhile share exactly one more', async () => {
    const { sync, runs } = manualSync();
    const first = sync();
    const second = sync();
    const third = sync();
    expect(second).toBe(third);
    await tick();
    expect(runs).toHaveLength(1);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    runs[0]!();
    await first;
    await tick();
    // The first run may have started before the second caller's write: the second waits for a run of its own.
    expect(secondDone).toBe(false);
    expect(runs).toHaveLength(2);
    runs[1]!();
    await second;
    expect(runs).toHaveLength(2);
  });
});

describe('WalSyncedSqliteDialect', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-wal-'));
    dirs.push(dir);
    const database = new SQLite(path.join(dir, 'db.sqlite'));
    database.exec('pragma journal_mode = WAL; pragma synchronous = NORMAL;');
    let syncs = 0;
    let release: (() => void) | undefined;
    const sync = coalescedSync(async () => {
      syncs++;
      await new Promise<void>((resolve) => (release = resolve));
    });
    const db = new Kysely<{ t: { v: number } }>({ dialect: new WalSyncedSqliteDialect({ database }, database, sync) });
    return { db, syncs: () => syncs, release: () => release?.() };
  }

  /** `open`, with table `t` made (its write synced). */
  async function openWithTable() {
    const opened = open();
    const created = sql`create table t (v integer)`.execute(opened.db);
    await tick();
    opened.release();
    await created;
    return opened;
  }

  it('answers a write only once the WAL is synced; a transaction syncs once, at its end; a read not at all', async () => {
    const { db, syncs, release } = await openWithTable();
    const before = syncs();

    let written = false;
    const write = db
      .insertInto('t')
      .values({ v: 1 })
      .execute()
      .then(() => (written = true));
    await tick();
    expect(syncs()).toBe(before + 1);
    expect(written).toBe(false);
    // The connection is free while the sync runs: a read goes through meanwhile.
    expect(await db.selectFrom('t').select('v').execute()).toEqual([{ v: 1 }]);
    release();
    await write;
    expect(written).toBe(true);

    const inTransaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ v: 2 }).execute();
      await trx.insertInto('t').values({ v: 3 }).execute();
    });
    await tick();
    expect(syncs()).toBe(before + 2);
    release();
    await inTransaction;
    expect(syncs()).toBe(before + 2);
    await db.destroy();
  });

  it('leaves a deferred transaction to the next synced write', async () => {
    const { db, syncs } = await openWithTable();
    const before = syncs();
    await transactionWithDeferredSync(db, (trx) => trx.insertInto('t').values({ v: 1 }).execute());
    expect(syncs()).toBe(before);
    await db.destroy();
  });

  it('is how the server opens a SQLite file: WAL, NORMAL, and the write is on disk when answered', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-wal-'));
    dirs.push(dir);
    const db = openDb({ dialect: 'sqlite', file: path.join(dir, 'db.sqlite') });
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
    expect(rows[0]!.synchronous).toBe(1);
    // Known as WAL-synced: a deferred transaction then sets no level around itself (dialect.ts).
    expect(isWalSynced(db)).toBe(true);
    await sql`create table t (v integer)`.execute(db);
    await sql`insert into t values (42)`.execute(db);
    expect(fs.statSync(path.join(dir, 'db.sqlite-wal')).size).toBeGreaterThan(0);
    await db.destroy();
  });
});
