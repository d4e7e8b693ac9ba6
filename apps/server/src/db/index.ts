import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { ownerOnly } from '../data-dir.js';
import { migrations } from './migrations/index.js';
import { withStatementCache } from './statement-cache.js';
import { fileSync, markWalSynced, WalSyncedSqliteDialect } from './wal-sync.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

// PostgreSQL answers BIGINT (int8) as a string; our bigints are byte counts and epoch
// seconds far below 2^53, so read them as numbers on both dialects.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

const pools = new WeakMap<Db, pg.Pool>();

/** The PostgreSQL connection pool behind a handle (undefined on SQLite), for its metrics. */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

/** Opens the database named by the configuration (SQLite file or PostgreSQL pool). */
export function openDb(config: DatabaseConfig): Db {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    // An idle connection that the server drops (restart, failover, admin command) must not
    // crash the process: the pool replaces it on the next query.
    pool.on('error', (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  fs.mkdirSync(path.dirname(config.file), { recursive: true, mode: 0o700 });
  ownerOnlyDatabaseFiles(config.file);
  const database = new SQLite(config.file);
  // `exec`, not `pragma()`: the latter makes a statement object for the collector (see
  // statement-cache.ts for why none may be left to it).
  database.exec('pragma journal_mode = WAL; pragma foreign_keys = ON; pragma busy_timeout = 5000;');
  const cached = withStatementCache(database);
  if ((cached.prepare('pragma journal_mode').all([]) as { journal_mode: string }[])[0]?.journal_mode === 'wal') {
    // An acknowledged write survives a power cut, not only a process crash: committed at
    // NORMAL, then the WAL is synced off the event loop before the write is answered (wal-sync.ts).
    database.exec('pragma synchronous = NORMAL;');
    const db = new Kysely<Database>({ dialect: new WalSyncedSqliteDialect({ database: cached }, database, fileSync(`${config.file}-wal`)) });
    markWalSynced(db);
    return db;
  }
  // No WAL on this file system: every commit syncs on its own.
  database.exec('pragma synchronous = FULL;');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
}

/** The SQLite database file and the journal files SQLite keeps beside it. */
export const sqliteFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

/**
 * Makes the database readable by the server's account only, before SQLite opens it: a
 * new file is created empty with mode 0600 (SQLite takes an empty file as an empty
 * database), an existing one and its journal files are changed to 0600. SQLite creates
 * its -wal and -shm files with the database file's mode, so they are 0600 from the start.
 */
function ownerOnlyDatabaseFiles(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const existing of sqliteFiles(file)) ownerOnly(existing, 0o600);
}

/** Runs every pending migration, forward only; throws on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when the database answers a trivial query. */
export async function pingDb(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
