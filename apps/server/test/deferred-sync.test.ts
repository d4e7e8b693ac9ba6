import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isSqlite, transactionWithDeferredSync } from '../src/db/dialect.js';
import type { Db } from '../src/db/index.js';
import { describeEachDialect, openTestDb } from './harness.js';

/** The connection's durability level: SQLite's `synchronous` (2 FULL, 1 NORMAL), PostgreSQL's `synchronous_commit`. */
async function level(db: Db): Promise<string> {
  if (isSqlite(db)) return String((await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]!.synchronous);
  return (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;
}

describeEachDialect('transaction with deferred sync ($dialect)', (dialect) => {
  let db: Db;
  let close: () => Promise<void>;
  // SQLite runs at NORMAL throughout: a synced write's durability is the WAL sync that follows
  // its commit before it is answered, which a deferred transaction skips (wal-sync.test.ts).
  const full = dialect === 'sqlite' ? '1' : 'on';
  const deferred = dialect === 'sqlite' ? '1' : 'off';

  beforeAll(async () => {
    ({ db, close } = await openTestDb(dialect));
    await sql`create table marks (id integer primary key, note text not null)`.execute(db);
  });
  afterAll(async () => {
    await close();
  });

  it('commits at the deferred level and leaves the connection synchronous again', async () => {
    expect(await level(db)).toBe(full);
    const inside = await transactionWithDeferredSync(db, async (trx) => {
      await sql`insert into marks (id, note) values (1, 'kept')`.execute(trx);
      return level(trx as unknown as Db);
    });
    expect(inside).toBe(deferred);
    expect(await level(db)).toBe(full);
    expect((await sql<{ note: string }>`select note from marks where id = 1`.execute(db)).rows).toEqual([{ note: 'kept' }]);
  });

  it('rolls back on an error and still restores the level', async () => {
    await expect(
      transactionWithDeferredSync(db, async (trx) => {
        await sql`insert into marks (id, note) values (2, 'dropped')`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await sql`select id from marks where id = 2`.execute(db)).rows).toEqual([]);
    expect(await level(db)).toBe(full);
  });

  it('keeps other queries out while the level is lowered', async () => {
    // A query issued while the deferred transaction runs must not commit at its level.
    let during = '';
    await transactionWithDeferredSync(db, async (trx) => {
      void level(db).then((l) => (during = l));
      await sql`insert into marks (id, note) values (3, 'x')`.execute(trx);
      await new Promise((r) => setTimeout(r, 20));
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(during).toBe(full);
  });
});
