import { type Kysely, SqliteAdapter, sql, type Transaction } from 'kysely';
import { isWalSynced, withDeferredWalSync } from './wal-sync.js';

/** True on SQLite, false on PostgreSQL (the two dialects the server runs on). */
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * Runs `fn` in a transaction whose commit does not wait for the disk: SQLite commits it at
 * `synchronous = NORMAL` (its WAL frames are synced by the next full commit or checkpoint,
 * which keeps the order of commits), PostgreSQL with `synchronous_commit = off`. A power
 * cut may lose such a commit, never corrupt the database or reorder it. Only for records
 * whose loss costs a repetition and nothing else, such as an upload chunk's record (the
 * client sends the chunk again); everything else commits synchronously.
 */
export function transactionWithDeferredSync<DB, T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (!isSqlite(db)) {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return fn(trx);
    });
  }
  // Its WAL is synced by the next synced write (wal-sync.ts); the database already commits at
  // NORMAL, so nothing is set (three statements each time before).
  if (isWalSynced(db)) return withDeferredWalSync(() => db.transaction().execute(fn));
  // Where the file has no WAL,
  // SQLite commits at FULL: the level is set around the transaction (SQLite refuses to change
  // it inside one), on the one connection, which no other query uses until this returns.
  return withDeferredWalSync(() =>
    db.connection().execute(async (conn) => {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(conn);
      const level = rows[0]?.synchronous ?? 2;
      await sql`pragma synchronous = NORMAL`.execute(conn);
      try {
        return await conn.transaction().execute(fn);
      } finally {
        await sql.raw(`pragma synchronous = ${Number(level)}`).execute(conn);
      }
    }),
  );
}
