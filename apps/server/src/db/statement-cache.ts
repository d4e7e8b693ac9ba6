import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// The server runs the same few hundred statements over and over (a chunk of an upload
// runs about ten); compiling each one again on every call cost ~4% of the event loop in
// an upload. Bounded, because queries with `in (…)` lists have a text per list length.
const DEFAULT_LIMIT = 500;

/**
 * On Node 23 and later a native addon's wrapped objects unregister an environment
 * cleanup hook when they are garbage collected, and find the environment through the
 * isolate's current context; a better-sqlite3 statement collected while none is entered
 * aborts the whole process ("Assertion failed: (env) != nullptr", seen on Node 24 at
 * server start-up). There no statement is ever left to the collector: those dropped from
 * the cache, and a closed database with its statements, stay referenced here for the life
 * of the process (docs/decisions.md).
 */
const STATEMENTS_OUTLIVE_GC = Number(process.versions.node.split('.')[0]) >= 23;
const retired: (SQLite.Statement | SQLite.Database)[] = [];

/**
 * A better-sqlite3 database for Kysely whose prepared statements are kept by SQL text,
 * least recently used dropped first. Handing the same statement out again is safe: Kysely
 * runs one query at a time on its SQLite connection, and better-sqlite3 refuses any query
 * while a streamed one is still open.
 */
export function withStatementCache(database: SQLite.Database, limit = DEFAULT_LIMIT): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      // Closed, the database and its statements are kept from the collector all the same.
      if (STATEMENTS_OUTLIVE_GC) retired.push(database, ...statements.values());
      statements.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const kept = statements.get(sql);
      if (kept) {
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > limit) {
        const oldest = statements.keys().next().value!;
        if (STATEMENTS_OUTLIVE_GC) retired.push(statements.get(oldest)!);
        statements.delete(oldest);
      }
      return statement;
    },
  };
}
