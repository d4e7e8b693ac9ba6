import { type Kysely, SqliteAdapter } from 'kysely';

/** True on SQLite, false on PostgreSQL (the two dialects the server runs on). */
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
