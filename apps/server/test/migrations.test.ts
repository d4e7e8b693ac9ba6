import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { describeEachDialect, openTestDb } from './harness.js';

describeEachDialect('migrations on $dialect', (dialect) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('apply every migration once, in order, and nothing on a second start', async () => {
    const { db, close } = await openTestDb(dialect);
    cleanups.push(close);

    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    expect(await migrateToLatest(db)).toEqual(names);
    expect(await migrateToLatest(db)).toEqual([]);

    // The schema works through the real query builder on this dialect.
    await db.insertInto('settings').values({ key: 'probe', value: '"x"', updated_at: new Date().toISOString() }).execute();
    const row = await db.selectFrom('settings').selectAll().where('key', '=', 'probe').executeTakeFirstOrThrow();
    expect(row.value).toBe('"x"');
    const count = await sql<{ n: number }>`select count(*) as n from users`.execute(db);
    expect(Number(count.rows[0]!.n)).toBe(0);
  });
});
