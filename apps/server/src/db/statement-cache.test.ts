import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from './statement-cache.js';

interface Tables {
  items: { id: number; name: string };
}

let database: SQLite.Database;

function open(limit?: number) {
  database = new SQLite(':memory:');
  database.exec("create table items (id integer primary key, name text); insert into items values (1, 'a'), (2, 'b'), (3, 'c')");
  const prepare = vi.spyOn(database, 'prepare');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(database, limit) }) });
  return { db, prepare };
}

afterEach(() => database?.close());

describe('statement cache', () => {
  it('compiles a query once and answers each call with its own parameters', async () => {
    const { db, prepare } = open();
    const names: string[] = [];
    for (const id of [1, 2, 3, 2]) {
      const row = await db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirstOrThrow();
      names.push(row.name);
    }
    expect(names).toEqual(['a', 'b', 'c', 'b']);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('streams a query and runs it again once the stream is done', async () => {
    const { db, prepare } = open();
    const query = () => db.selectFrom('items').select('name').orderBy('id');
    const streamed: string[] = [];
    for await (const row of query().stream()) streamed.push(row.name);
    const again = await query().execute();
    expect(streamed).toEqual(['a', 'b', 'c']);
    expect(again.map((r) => r.name)).toEqual(streamed);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('keeps at most `limit` statements, dropping the least recently used', async () => {
    const { db, prepare } = open(2);
    const byId = (id: number) => db.selectFrom('items').select('name').where('id', '=', id);
    const byName = (name: string) => db.selectFrom('items').select('id').where('name', '=', name);
    const byIds = (ids: number[]) => db.selectFrom('items').select('name').where('id', 'in', ids);
    await byId(1).execute();
    await byName('a').execute();
    await byId(2).execute(); // byId is now the most recent
    await byIds([1, 2]).execute(); // evicts byName
    expect(prepare).toHaveBeenCalledTimes(3);
    await byId(3).execute();
    expect(prepare).toHaveBeenCalledTimes(3);
    await byName('b').execute();
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it('sees writes made through the same cached statements', async () => {
    const { db } = open();
    for (const name of ['d', 'e'])
      await db
        .insertInto('items')
        .values({ id: name === 'd' ? 4 : 5, name })
        .execute();
    const rows = await db.selectFrom('items').select('name').orderBy('id').execute();
    expect(rows.map((r) => r.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
