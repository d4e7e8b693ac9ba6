import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import type SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

/**
 * SQLite commits at `synchronous = NORMAL` (no fsync while the commit holds the event loop)
 * and every write is made durable afterwards by an fdatasync of the WAL file on libuv's
 * thread pool, before the call that wrote is answered: an acknowledged write survives a power
 * cut as with `synchronous = FULL`, but the event loop never waits for the disk, and commits
 * that finish while a sync runs share the next one (group commit). See
 * docs/decisions/platform.md, "SQLite commits synced off the event loop".
 */

/** Syncs a file to the disk; calls made while one runs are covered by one more run after it. */
export type FileSync = () => Promise<void>;

/** Coalesces syncs: at most one runs, at most one waits; a caller's sync always starts after its call. */
export function coalescedSync(syncOnce: () => Promise<void>): FileSync {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const sync = (): Promise<void> => {
    if (!running) {
      running = syncOnce().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return sync();
      });
    return queued;
  };
  return sync;
}

/** fdatasync of a file on the thread pool; a missing file (no WAL yet) has nothing to sync. */
export function fileSync(file: string): FileSync {
  return coalescedSync(async () => {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  });
}

const deferred = new AsyncLocalStorage<true>();

/** The databases opened with `WalSyncedSqliteDialect` (see `isWalSynced`). */
const walSynced = new WeakSet<object>();

/** Records that `db` runs on `WalSyncedSqliteDialect` (openDb, once it is made). */
export function markWalSynced(db: object): void {
  walSynced.add(db);
}

/** True when `db` is a database opened on `WalSyncedSqliteDialect`: it commits at NORMAL and syncs the WAL itself. */
export function isWalSynced(db: object): boolean {
  return walSynced.has(db);
}

/** Runs `fn` with the WAL sync of its writes left to the next synced write or checkpoint (`transactionWithDeferredSync`). */
export function withDeferredWalSync<T>(fn: () => Promise<T>): Promise<T> {
  return deferred.run(true, fn);
}

/**
 * Kysely's SQLite dialect with the WAL sync: a statement that wrote outside a transaction,
 * or the commit that ended one, marks the connection; when the connection is released (so
 * other queries go on meanwhile) the caller waits for the WAL sync.
 */
export class WalSyncedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly database: Pick<SQLite.Database, 'inTransaction'>,
    private readonly sync: FileSync,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new WalSyncedDriver(super.createDriver(), this.database, this.sync);
  }
}

class WalSyncedDriver implements Driver {
  private unsynced = false;
  private readonly connections = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly database: Pick<SQLite.Database, 'inTransaction'>,
    private readonly sync: FileSync,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapped = this.connections.get(connection);
    if (!wrapped) {
      wrapped = {
        executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
          const result = await connection.executeQuery<R>(query);
          // A statement that is not a reader answers numAffectedRows (writes, DDL, begin/commit/rollback).
          if (result.numAffectedRows !== undefined && !this.database.inTransaction && !deferred.getStore()) this.unsynced = true;
          return result;
        },
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      this.connections.set(connection, wrapped);
    }
    return wrapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const mustSync = this.unsynced;
    this.unsynced = false;
    await this.inner.releaseConnection(connection);
    if (mustSync) await this.sync();
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
