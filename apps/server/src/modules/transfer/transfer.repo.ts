import { type Insertable, type RawBuilder, type Selectable, sql, type Transaction } from 'kysely';
import { isSqlite, transactionWithDeferredSync } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { Database, UploadSessionsTable } from '../../db/schema.js';
import { newId } from '../../ids.js';

export type UploadSessionRow = Selectable<UploadSessionsTable>;

/** A staged chunk as recorded: its index, size in bytes, and the token of the write that stored it. */
export interface ChunkRow {
  idx: number;
  size: number;
  token: string;
}

/** What asking for a chunk's writer lease found. */
export type LeaseAnswer = 'taken' | 'busy' | 'recorded' | 'gone';

/** SQL of the transfer side: upload sessions, their chunks, and blob pins and collection. */
export class TransferRepo {
  constructor(private readonly db: Db) {}

  findSession(userId: string, parentId: string, fileName: string, fileSize: number, clientKey = ''): Promise<UploadSessionRow | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('parent_id', '=', parentId)
      .where('file_name', '=', fileName)
      .where('file_size', '=', fileSize)
      .where('client_key', '=', clientKey)
      .executeTakeFirst();
  }

  /** The session of this user, folder, name, size and client key; created when there is none (concurrent calls agree on one). */
  async openSession(row: Insertable<UploadSessionsTable> & { client_key: string }): Promise<UploadSessionRow> {
    const key = [row.user_id, row.parent_id, row.file_name, row.file_size, row.client_key] as const;
    // Most chunks find their session: no write (and no commit) for them.
    const existing = await this.findSession(...key);
    if (existing) return existing;
    await this.db
      .insertInto('upload_sessions')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'parent_id', 'file_name', 'file_size', 'client_key']).doNothing())
      .execute();
    const session = await this.findSession(...key);
    if (!session) throw new Error('upload session vanished while opening it');
    return session;
  }

  /**
   * Takes the writer lease of chunk `idx` until `expiresAt` (epoch ms): only while the
   * session is open, the chunk is not recorded, and no other writer holds a live lease on
   * it. The session row is locked first (a write: PostgreSQL row lock, SQLite write lock),
   * as the claim and the record do, so the three never interleave.
   */
  async takeLease(sessionId: string, idx: number, token: string, expiresAt: number, now: number): Promise<LeaseAnswer> {
    return this.leaseTransaction(async (trx) => {
      if (!(await lockSession(trx, sessionId))) return 'gone';
      const recorded = await trx.selectFrom('upload_chunks').select('idx').where('session_id', '=', sessionId).where('idx', '=', idx).executeTakeFirst();
      if (recorded) return 'recorded';
      const taken = await trx
        .insertInto('upload_leases')
        .values({ session_id: sessionId, idx, token, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['session_id', 'idx']).doUpdateSet({ token, expires_at: expiresAt }).where('upload_leases.expires_at', '<=', now))
        .executeTakeFirst();
      return Number(taken.numInsertedOrUpdatedRows ?? 0) === 1 ? 'taken' : 'busy';
    });
  }

  /**
   * The transaction of a lease. SQLite: not waited onto the disk (one per chunk); only a
   * power cut loses it, and that stops its writer too, in the same process. PostgreSQL
   * waits: a database server that crashed must not come back without a lease whose writer
   * (on another machine) is still writing.
   */
  private leaseTransaction<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return isSqlite(this.db) ? transactionWithDeferredSync(this.db, fn) : this.db.transaction().execute(fn);
  }

  /** Extends a lease this writer still holds; false when it is no longer its own. */
  async renewLease(sessionId: string, idx: number, token: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_leases')
      .set({ expires_at: expiresAt })
      .where('session_id', '=', sessionId)
      .where('idx', '=', idx)
      .where('token', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a lease up (its write failed). */
  async releaseLease(sessionId: string, idx: number, token: string): Promise<void> {
    await this.db.deleteFrom('upload_leases').where('session_id', '=', sessionId).where('idx', '=', idx).where('token', '=', token).execute();
  }

  /**
   * Records a stored chunk and ends its writer's lease, in one transaction; answers the
   * session's chunk records as they stand after it (in index order), or null (nothing
   * recorded) when the lease is no longer this writer's (it ran out and another writer
   * took the chunk over) or the session is gone. The chunk's bytes are on the disk already;
   * the record's commit does not wait for the disk (a power cut may lose it, and the client
   * then sends that chunk again).
   */
  async recordChunk(sessionId: string, idx: number, size: number, token: string): Promise<ChunkRow[] | null> {
    const now = new Date().toISOString();
    return transactionWithDeferredSync(this.db, async (trx) => {
      if (!(await lockSession(trx, sessionId, now))) return null;
      const ended = await trx
        .deleteFrom('upload_leases')
        .where('session_id', '=', sessionId)
        .where('idx', '=', idx)
        .where('token', '=', token)
        .executeTakeFirst();
      if (Number(ended.numDeletedRows) !== 1) return null;
      await trx.insertInto('upload_chunks').values({ session_id: sessionId, idx, size, created_at: now, token }).execute();
      return this.chunksOf(sessionId, trx);
    });
  }

  /** The chunk records of a session, in index order (read in `trx` when given). */
  chunksOf(sessionId: string, trx: Transaction<Database> | Db = this.db): Promise<ChunkRow[]> {
    return trx.selectFrom('upload_chunks').select(['idx', 'size', 'token']).where('session_id', '=', sessionId).orderBy('idx').execute();
  }

  sessionExists(id: string): Promise<boolean> {
    return this.db
      .selectFrom('upload_sessions')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst()
      .then((row) => row !== undefined);
  }

  /**
   * Removes a session and its chunk records; answers the records (in index order) to the
   * one caller that removed it, null to any other, and null while a writer holds a live
   * lease on one of its chunks (its bytes may still change). Completing an upload starts
   * with this, so of two requests that both see the last chunk arrive, exactly one
   * assembles the file, and never while a write into its staged bytes is going on.
   */
  async claimSession(id: string, now = Date.now()): Promise<ChunkRow[] | null> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await lockSession(trx, id))) return null;
      const live = await trx.selectFrom('upload_leases').select('idx').where('session_id', '=', id).where('expires_at', '>', now).executeTakeFirst();
      if (live) return null;
      const chunks = await trx.selectFrom('upload_chunks').select(['idx', 'size', 'token']).where('session_id', '=', id).orderBy('idx').execute();
      await trx.deleteFrom('upload_leases').where('session_id', '=', id).execute();
      await trx.deleteFrom('upload_chunks').where('session_id', '=', id).execute();
      await trx.deleteFrom('upload_sessions').where('id', '=', id).execute();
      return chunks;
    });
  }

  /** Sessions not written to since `before`. */
  staleSessions(before: string): Promise<Pick<UploadSessionRow, 'id' | 'backend'>[]> {
    return this.db.selectFrom('upload_sessions').select(['id', 'backend']).where('updated_at', '<', before).limit(1000).execute();
  }

  /**
   * One more reference to a blob while an upload writes and links it, so the orphan
   * collector cannot take the blob between the write and the new node; creates the blob
   * row. The reference is a `blob_pins` row as well, so a recount finds it (and a pin left
   * by a crash is dropped by the repair). Answers the pin's id.
   */
  async pinBlob(backend: string, hash: string, size: number): Promise<string> {
    const id = newId();
    const now = new Date().toISOString();
    // Not waited onto the disk: the commit that adds the file to the tree (waited) writes it
    // to the disk first, in order; lost before that, the pin and its reference were never
    // needed and the staged bytes are an orphan for the collector (docs/decisions.md).
    await transactionWithDeferredSync(this.db, async (trx) => {
      await trx.insertInto('blob_pins').values({ id, backend, hash, created_at: now }).execute();
      await trx
        .insertInto('blobs')
        .values({ backend, hash, size, ref_count: 1, created_at: now })
        .onConflict((oc) => oc.columns(['backend', 'hash']).doUpdateSet({ ref_count: sql`blobs.ref_count + 1` }))
        .execute();
    });
    return id;
  }

  /** Drops a pin and its reference (once, however often it is called). */
  async unpinBlob(pinId: string): Promise<void> {
    // Not waited onto the disk either: a release lost to a power cut leaves a pin, which the
    // recount drops once it is stale (its count then fixed), as after a crash between the steps.
    await transactionWithDeferredSync(this.db, async (trx) => {
      const pin = await trx.deleteFrom('blob_pins').where('id', '=', pinId).returning(['backend', 'hash']).executeTakeFirst();
      if (!pin) return;
      await trx
        .updateTable('blobs')
        .set({ ref_count: sql`case when ref_count > 0 then ref_count - 1 else 0 end` })
        .where('backend', '=', pin.backend)
        .where('hash', '=', pin.hash)
        .execute();
    });
  }

  /**
   * Makes every blob's reference count equal its references again: file nodes (trashed
   * ones too), storage-sync pins and upload pins. A crash between two steps that each
   * change a count (a pin and its release, a copy and its count) leaves a count too high
   * or too low; this finds those blobs with one read and fixes each in a transaction that
   * locks its row first and counts after, so a reference added or dropped at the same time
   * (always in the transaction that changes the count) is counted exactly once. Upload pins
   * older than `stalePinsBefore` belong to completions that died: they go first. Answers
   * how many counts were wrong.
   */
  async repairRefCounts(stalePinsBefore: string): Promise<number> {
    await this.db.deleteFrom('blob_pins').where('created_at', '<', stalePinsBefore).execute();
    const wrong = await this.db
      .selectFrom('blobs')
      .select(['backend', 'hash'])
      .where(sql<boolean>`blobs.ref_count <> ${referencesOf(sql.ref('blobs.backend'), sql.ref('blobs.hash'))}`)
      .execute();
    for (const blob of wrong) {
      await this.db.transaction().execute(async (trx) => {
        // The lock first; the count in a later statement sees every reference committed before it.
        for (const refCount of [sql<number>`ref_count`, referencesOf(sql.val(blob.backend), sql.val(blob.hash))]) {
          await trx.updateTable('blobs').set({ ref_count: refCount }).where('backend', '=', blob.backend).where('hash', '=', blob.hash).execute();
        }
      });
    }
    return wrong.length;
  }

  /** Blobs nothing refers to. */
  unreferencedBlobs(limit = 1000): Promise<{ backend: string; hash: string }[]> {
    return this.db.selectFrom('blobs').select(['backend', 'hash']).where('ref_count', '<=', 0).limit(limit).execute();
  }

  /**
   * Deletes a blob: its row, only while nothing refers to it (neither its count nor a
   * node, sync pin or upload pin), and its bytes (`removeBytes`) in the same transaction.
   * The row's delete holds its lock (PostgreSQL: the row lock; SQLite: the write lock)
   * until the bytes are gone, so a pin or a new reference for this hash waits and then
   * creates a new row, and finds no bytes. A failed `removeBytes` keeps the row. True when
   * the blob went (docs/decisions.md, "Blob collection: the row and the bytes go together").
   */
  async deleteUnreferenced(backend: string, hash: string, removeBytes: () => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('blobs')
        .where('backend', '=', backend)
        .where('hash', '=', hash)
        .where('ref_count', '<=', 0)
        .where(sql<boolean>`${referencesOf(sql.val(backend), sql.val(hash))} = 0`)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) !== 1) return false;
      await removeBytes();
      return true;
    });
  }

  /**
   * Deletes bytes that no blob row names (`removeBytes`), while a row of its own holds
   * the hash: inserted first (only when there is none), deleted with the bytes in one
   * transaction, so a pin or reference for this hash meanwhile waits, then creates its row
   * and finds no bytes. False (nothing deleted) when the hash has a row.
   */
  async deleteOrphan(backend: string, hash: string, removeBytes: () => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('blobs')
        .values({ backend, hash, size: 0, ref_count: 0, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.columns(['backend', 'hash']).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      await removeBytes();
      await trx.deleteFrom('blobs').where('backend', '=', backend).where('hash', '=', hash).execute();
      return true;
    });
  }

  /** Which of these hashes have a blob row on the backend. */
  async knownHashes(backend: string, hashes: string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db.selectFrom('blobs').select('hash').where('backend', '=', backend).where('hash', 'in', hashes).execute();
    return new Set(rows.map((r) => r.hash));
  }
}

/**
 * Locks an upload session's row until the transaction ends, with a write (PostgreSQL: a
 * row lock; SQLite: the database's write lock); false when the session is gone.
 */
async function lockSession(trx: Transaction<Database>, id: string, touched?: string): Promise<boolean> {
  const result = await trx
    .updateTable('upload_sessions')
    .set({ updated_at: touched ?? sql<string>`updated_at` })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The references a blob has: file nodes, storage-sync pins and upload pins. */
function referencesOf(backend: RawBuilder<unknown>, hash: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(
    (select count(*) from nodes where nodes.folder = 0 and nodes.backend = ${backend} and nodes.content_hash = ${hash})
    + (select count(*) from storage_sync_pins where storage_sync_pins.backend = ${backend} and storage_sync_pins.hash = ${hash})
    + (select count(*) from blob_pins where blob_pins.backend = ${backend} and blob_pins.hash = ${hash})
    + (select count(*) from file_versions where file_versions.backend = ${backend} and file_versions.content_hash = ${hash}))`;
}
