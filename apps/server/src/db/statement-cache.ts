import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// The server runs the same few hundred statements over and over (a chunk of an upload
// runs about ten); compiling each one again on every call cost ~4% of the event loop in
// an upload. Bounded, because queries with `in (…)` lists have a text per list length.
const DEFAULT_LIMIT = 500;

/**
 * A better-sqlite3 database for Kysely whose prepared statements are kept by SQL text,
 * least recently used dropped first. Handing the same statement out again is safe: Kysely
 * runs one query at a time on its SQLite connection, and better-sqlite3 refuses any query
 * while a streamed one is still open.
 */
export function withStatementCache(database: SQLite.Database, limit = DEFAULT_LIMIT): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const kept = statements.get(sql);
      if (kept) {
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > limit) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
