import { type Selectable, sql } from 'kysely';
import { transactionWithDeferredSync } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { UploadSessionsTable } from '../../db/schema.js';

export type UploadSessionRow = Selectable<UploadSessionsTable>;

/** A staged chunk as recorded: its index, size in bytes, and the token of the write that stored it. */
export interface ChunkRow {
  idx: number;
  size: number;
  token: string;
}

/** SQL of the transfer side: upload sessions, their chunks, and blob pins and collection. */
export class TransferRepo {
  constructor(private readonly db: Db) {}

  findSession(userId: string, parentId: string, fileName: string, fileSize: number): Promise<UploadSessionRow | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('parent_id', '=', parentId)
      .where('file_name', '=', fileName)
      .where('file_size', '=', fileSize)
      .executeTakeFirst();
  }

  /** The session of this user, folder, name and size; created when there is none (concurrent calls agree on one). */
  async openSession(row: UploadSessionRow): Promise<UploadSessionRow> {
    // Most chunks find their session: no write (and no commit) for them.
    const existing = await this.findSession(row.user_id, row.parent_id, row.file_name, row.file_size);
    if (existing) return existing;
    await this.db
      .insertInto('upload_sessions')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'parent_id', 'file_name', 'file_size']).doNothing())
      .execute();
    const session = await this.findSession(row.user_id, row.parent_id, row.file_name, row.file_size);
    if (!session) throw new Error('upload session vanished while opening it');
    return session;
  }

  /**
   * Records a stored chunk (a chunk sent again replaces the earlier record) and marks the
   * session used. The chunk's bytes are on the disk already; the record's commit does not
   * wait for the disk (a power cut may lose it, and the client then sends that chunk again).
   */
  async recordChunk(sessionId: string, idx: number, size: number, token: string): Promise<void> {
    const now = new Date().toISOString();
    await transactionWithDeferredSync(this.db, async (trx) => {
      await trx
        .insertInto('upload_chunks')
        .values({ session_id: sessionId, idx, size, created_at: now, token })
        .onConflict((oc) => oc.columns(['session_id', 'idx']).doUpdateSet({ size, created_at: now, token }))
        .execute();
      await trx.updateTable('upload_sessions').set({ updated_at: now }).where('id', '=', sessionId).execute();
    });
  }

  chunksOf(sessionId: string): Promise<ChunkRow[]> {
    return this.db.selectFrom('upload_chunks').select(['idx', 'size', 'token']).where('session_id', '=', sessionId).orderBy('idx').execute();
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
   * one caller that removed it, null to any other. Completing an upload starts with this,
   * so of two requests that both see the last chunk arrive, exactly one assembles the file.
   */
  async claimSession(id: string): Promise<ChunkRow[] | null> {
    return this.db.transaction().execute(async (trx) => {
      const chunks = await trx.selectFrom('upload_chunks').select(['idx', 'size', 'token']).where('session_id', '=', id).orderBy('idx').execute();
      await trx.deleteFrom('upload_chunks').where('session_id', '=', id).execute();
      const result = await trx.deleteFrom('upload_sessions').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1 ? chunks : null;
    });
  }

  /** Sessions not written to since `before`. */
  staleSessions(before: string): Promise<Pick<UploadSessionRow, 'id' | 'backend'>[]> {
    return this.db.selectFrom('upload_sessions').select(['id', 'backend']).where('updated_at', '<', before).limit(1000).execute();
  }

  /**
   * One more reference to a blob while an upload writes and links it, so the orphan
   * collector cannot take the blob between the write and the new node; creates the row.
   */
  async pinBlob(backend: string, hash: string, size: number): Promise<void> {
    await this.db
      .insertInto('blobs')
      .values({ backend, hash, size, ref_count: 1, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['backend', 'hash']).doUpdateSet({ ref_count: sql`blobs.ref_count + 1` }))
      .execute();
  }

  async unpinBlob(backend: string, hash: string): Promise<void> {
    await this.db
      .updateTable('blobs')
      .set({ ref_count: sql`case when ref_count > 0 then ref_count - 1 else 0 end` })
      .where('backend', '=', backend)
      .where('hash', '=', hash)
      .execute();
  }

  /** Blobs nothing refers to. */
  unreferencedBlobs(limit = 1000): Promise<{ backend: string; hash: string }[]> {
    return this.db.selectFrom('blobs').select(['backend', 'hash']).where('ref_count', '<=', 0).limit(limit).execute();
  }

  /** Deletes a blob row only while nothing refers to it; true when it was deleted (its bytes may go then). */
  async deleteUnreferenced(backend: string, hash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('blobs')
      .where('backend', '=', backend)
      .where('hash', '=', hash)
      .where('ref_count', '<=', 0)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Which of these hashes have a blob row on the backend. */
  async knownHashes(backend: string, hashes: string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db.selectFrom('blobs').select('hash').where('backend', '=', backend).where('hash', 'in', hashes).execute();
    return new Set(rows.map((r) => r.hash));
  }
}
