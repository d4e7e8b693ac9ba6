import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CHUNK_SIZE, type FileEntry, isValidFileName, joinPath, type UploadConflictAction } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badRequest, conflict } from '../../errors.js';
import { newId } from '../../ids.js';
import { type BlobStore, blobKeyOf } from '../../storage/blob-store.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { nodeTarget } from '../files/file-audit.js';
import type { UploadProgress } from './upload-tasks.js';
import type { WebhookEmitter } from '../webhooks/ports.js';
import { toFileEntry } from '../files/files.presenter.js';
import type { FileAccess, FileTree, NewFile, NodeRow, TreeAudit, WriteLocks } from '../files/ports.js';
import type { UserRow } from '../users/users.repo.js';
import { ChunkLease, chunkRefused, LEASE_POLL_MS, LEASE_WAIT_MS, LeaseLostError } from './chunk-lease.js';
import { HashThread } from './hash-thread.js';
import { ChunkLengthError, type ChunkSource } from './chunk-body.js';
import { type Digest, inProcessDigest, RunningHashes } from './running-hash.js';
import type { ChunkRow, TransferRepo, UploadSessionRow } from './transfer.repo.js';

/** The multipart fields of one chunk, validated (the `userId` field is never read). */
export interface ChunkFields {
  fileName: string;
  path: string;
  chunkIndex: number;
  totalChunks: number;
  isLastChunk: boolean;
  fileSize: number;
  /** The client's id for this upload (kept for resume): keys the session when sent. */
  uploadId?: string;
  /** On a taken name: fail (the default), replace (the old content becomes a version) or keep both. */
  onConflict?: UploadConflictAction;
}

export interface ChunkAnswer {
  complete: boolean;
  received: number;
  file?: FileEntry;
}

/** Number of chunks a file of `size` bytes is sent in (an empty file is one empty chunk). */
export function chunkCountOf(size: number): number {
  return Math.max(1, Math.ceil(size / CHUNK_SIZE));
}

/** The exact size of chunk `index`: CHUNK_SIZE, except the last, which holds the rest. */
export function chunkSizeOf(index: number, fileSize: number): number {
  const count = chunkCountOf(fileSize);
  return index < count - 1 ? CHUNK_SIZE : fileSize - CHUNK_SIZE * (count - 1);
}

export const storeMissing = () => new AppError(503, 'cloud_bucket_missing');

/** How often a replacing upload looks at its name again when another writer changed it meanwhile. */
const PLACE_TRIES = 3;

/**
 * Chunked, resumable uploads. Every chunk is checked against the folder permission and
 * the root's volume before a byte is stored; chunks are staged in the backend's store;
 * the chunk that completes the set assembles the file: its SHA-256 comes from the hash
 * kept while the chunks arrived (`RunningHashes`) or else from one streamed pass,
 * identical content already stored is reused, otherwise the staged bytes become the blob
 * (fsync → rename, or one PUT), and only then does the tree gain the file.
 */
export class UploadService {
  /** Running hashes of the uploads this process receives. */
  readonly hashes = new RunningHashes();
  /** Keeps the running hashes of uploads staged on this server's disk, off the event loop. */
  private readonly hashThread = new HashThread();

  constructor(
    private readonly repo: TransferRepo,
    private readonly stores: BlobStores,
    private readonly tree: () => FileTree,
    private readonly access: () => FileAccess,
    /** WebDAV locks: a chunk for a locked name or into a locked folder is refused before it is stored. */
    private readonly locks: WriteLocks,
    private readonly audit: AuditRecorder,
    private readonly log: FastifyBaseLogger,
    private readonly progress: UploadProgress,
    /** Outgoing webhooks, told of every completed upload. */
    private readonly hooks: () => WebhookEmitter | undefined = () => undefined,
  ) {}

  /** The chunks already received for this file, so a client resumes with the rest. */
  async status(user: UserRow, query: { path: string; fileName: string; fileSize: number; uploadId?: string }): Promise<number[]> {
    const fileName = query.fileName.normalize('NFC');
    const folder = await this.folderFor(user, query.path, fileName);
    const session = await this.repo.findSession(user.id, folder.id, fileName, query.fileSize, query.uploadId ?? '');
    if (!session) return [];
    return (await this.repo.chunksOf(session.id)).map((c) => c.idx);
  }

  /** The user stopped the upload in the browser: its task shows as canceled (an upload this user has no session of: nothing). */
  async canceled(user: UserRow, query: { path: string; fileName: string; fileSize: number; uploadId?: string }): Promise<void> {
    const fileName = query.fileName.normalize('NFC');
    const folder = await this.folderFor(user, query.path, fileName);
    const session = await this.repo.findSession(user.id, folder.id, fileName, query.fileSize, query.uploadId ?? '');
    if (session) await this.progress.canceled(session.id);
  }

  /** Checks a chunk's fields and the target before its bytes are read; answers what storing it needs. */
  async prepare(user: UserRow, sent: ChunkFields): Promise<PreparedChunk> {
    // Everything below is keyed on the name: one Unicode form for it first.
    const fields = { ...sent, fileName: sent.fileName.normalize('NFC') };
    if (fields.totalChunks !== chunkCountOf(fields.fileSize)) throw badRequest('upload_size_mismatch');
    if (fields.chunkIndex >= fields.totalChunks) throw badRequest('upload_chunk_invalid');
    const folder = await this.folderFor(user, fields.path, fields.fileName);
    // As a WebDAV PUT of a new member: a lock on the name (a locked file there) or on the folder refuses it.
    await this.locks.assertCanWrite(user, [
      { path: joinPath(fields.path, fields.fileName), deep: false },
      { path: fields.path, deep: false },
    ]);
    // Decided before a byte is stored (and again at completion): a taken name fails, is replaced or kept beside.
    try {
      await this.checkName(user, fields);
    } catch (error) {
      // Refused for its name, the upload is over: what it staged goes now, not after a day.
      if (error instanceof AppError && error.messageKey === 'file_exists_warning') await this.dropRefused(user.id, folder, fields);
      throw error;
    }
    const root = await this.tree().rootOf(folder);
    await this.tree().assertRoom(root, fields.fileSize);
    const store = await this.stores.forBackend(folder.backend);
    if (!store) throw storeMissing();
    return { user, fields, folder, root, store };
  }

  /**
   * Stores one chunk; the chunk that completes the set also completes the file. Only the
   * holder of the chunk's writer lease writes into staging (a second writer meanwhile is
   * refused); a chunk already recorded is never written again: a resend is compared with
   * the staged bytes and accepted only when equal (docs/decisions.md, "Uploads: chunk leases").
   */
  async receive(prepared: PreparedChunk, body: ChunkSource, _ip: string): Promise<ChunkAnswer> {
    const { user, fields, store } = prepared;
    const index = fields.chunkIndex;
    const expected = chunkSizeOf(index, fields.fileSize);
    const token = newId();
    const { session, lease } = await this.leaseChunk(prepared, token);
    if (lease === 'recorded') {
      await refusingBadLength(fields, () => this.compareResent(store, session.id, index, expected, body));
      const received = (await this.repo.chunksOf(session.id)).length;
      if (fields.isLastChunk && received < fields.totalChunks) throw conflict('upload_incomplete');
      return { complete: false, received };
    }
    const tap = this.hashes.begin(session.id, index, () => this.digestOf(store, session.id));
    // The session's chunk records once this one is among them (read in the record's transaction).
    let chunks: ChunkRow[] | undefined;
    try {
      chunks = await refusingBadLength(fields, async () => {
        await store.staging.writeChunk(session.id, index, index * CHUNK_SIZE, expected, body.file(expected, lease.guard(tap)));
        // Recorded only once durable: the status call lists only chunks that survive a crash.
        const recorded = await this.repo.recordChunk(session.id, index, expected, token);
        if (!recorded) throw new LeaseLostError();
        return recorded;
      });
    } catch (error) {
      lease.stop();
      await lease.release().catch(() => {});
      await this.dropIfEmpty(session, store);
      if (error instanceof LeaseLostError) throw chunkRefused();
      throw error;
    } finally {
      lease.stop();
      this.hashes.end(session.id, index, chunks ? token : undefined);
    }

    const file = { name: fields.fileName, size: fields.fileSize, folder: fields.path };
    await this.progress.chunkStored(session.id, user.id, file, chunks.length, fields.totalChunks);
    if (chunks.length < fields.totalChunks) {
      // Chunks that arrived early go into the hash once the gap before them is filled (in the background).
      void this.hashes.catchUp(session.id, chunks);
      if (fields.isLastChunk) throw conflict('upload_incomplete');
      return { complete: false, received: chunks.length };
    }
    let node: NodeRow | undefined;
    try {
      node = await this.complete(prepared, session, store);
    } catch (error) {
      await this.progress.failed(session.id);
      throw error;
    }
    if (!node) return { complete: false, received: chunks.length };
    await this.progress.completed(session.id, fields.path);
    const path = joinPath(fields.path, node.name);
    // The upload session is the event: told once however many requests reach this point for it.
    this.hooks()?.emit('upload', { path, name: node.name, size: node.size, userId: user.id }, `upload:${session.id}`);
    return { complete: true, received: chunks.length, file: toFileEntry(node, path, false) };
  }

  /**
   * Assembles a complete upload into a blob and a node. Answers undefined when another
   * request is already completing it. Whatever happens, the session and its staged bytes
   * are gone afterwards: a refused file leaves nothing behind.
   */
  private async complete(prepared: PreparedChunk, session: UploadSessionRow, store: BlobStore): Promise<NodeRow | undefined> {
    const claimed = await this.repo.claimSession(session.id);
    if (!claimed) return undefined;
    const { fields, root, user } = prepared;
    const size = fields.fileSize;
    try {
      const { hash, length } =
        (await this.hashes.take(session.id, claimed)) ?? (await sha256Of(await store.staging.read(session.id, fields.totalChunks, size)));
      if (length !== size) throw badRequest('upload_size_mismatch');
      await this.tree().assertRoom(root, size);
      const key = blobKeyOf(hash);
      const pin = await this.repo.pinBlob(store.backend, hash, size);
      try {
        // Identical content already stored (the pin keeps it there): the staged copy is dropped.
        if ((await store.stat(key))?.size !== size) await store.staging.commit(session.id, fields.totalChunks, size, key);
        // The `file.upload` record is written in the transaction that adds the file.
        const audit = {
          recorder: this.audit,
          entry: (node: NodeRow, path: string) => ({ action: 'file.upload' as const, target: nodeTarget(node, path), params: { size } }),
        };
        return await this.place(prepared, { name: fields.fileName, size, contentHash: hash, blobKey: key, ownerId: user.id, backend: store.backend }, audit);
      } finally {
        await this.repo.unpinBlob(pin);
        await this.collectIfUnreferenced(store, hash);
      }
    } finally {
      await store.staging.discard(session.id).catch((error) => this.log.warn({ err: error, session: session.id }, 'staged upload not removed'));
    }
  }

  /**
   * Checks the upload's name against what the folder holds now: taken, `fail` is 409
   * `file_exists_warning`; `replace` needs a file there (a folder is 409 too) on which the
   * user holds UPDATE (403 otherwise); `keep-both` takes any name.
   */
  private async checkName(user: UserRow, fields: ChunkFields): Promise<NodeRow | undefined> {
    const action = fields.onConflict ?? 'fail';
    if (action === 'keep-both') return undefined;
    const path = joinPath(fields.path, fields.fileName);
    const taken = await this.tree().resolve(path);
    if (!taken) return undefined;
    if (action === 'fail' || taken.folder === 1) throw conflict('file_exists_warning');
    return this.access().require(user, path, 'UPDATE');
  }

  /**
   * Puts the stored content in the tree as the upload's `onConflict` says, checked again
   * now: a new file (a name taken meanwhile is 409 `file_exists_warning`, never overwritten),
   * a numbered name beside the taken one, or the new content of the file there (its old
   * content kept as a version; a file that appears, goes or changes meanwhile is looked at again).
   */
  private async place(prepared: PreparedChunk, file: NewFile & { backend: string }, audit: TreeAudit): Promise<NodeRow> {
    const { fields, folder, user } = prepared;
    const action = fields.onConflict ?? 'fail';
    if (action !== 'replace') return this.tree().addFile(folder, file, { audit, keepBoth: action === 'keep-both' });
    for (let attempt = 1; ; attempt++) {
      const existing = await this.checkName(user, fields);
      try {
        if (!existing) return await this.tree().addFile(folder, file, { audit });
        return await this.tree().replaceFile(existing, file, { audit, at: { parentId: folder.id, name: existing.name }, by: user.id });
      } catch (error) {
        const raced = error instanceof AppError && (error.messageKey === 'file_exists_warning' || error.messageKey === 'folder_not_found');
        if (!raced || attempt >= PLACE_TRIES) throw error;
      }
    }
  }

  /**
   * Opens (or finds) the chunk's session and takes the chunk's writer lease in it. A
   * session that a completion or clean-up removed in between is opened anew. While another
   * writer holds the chunk, this one waits for it to finish (then the chunk is recorded and
   * this write is compared with it) or for a dead writer's lease to run out (then it takes
   * over); past LEASE_WAIT_MS it is refused (409 `upload_chunk_invalid`).
   */
  private async leaseChunk(prepared: PreparedChunk, token: string): Promise<{ session: UploadSessionRow; lease: ChunkLease | 'recorded' }> {
    const { user, fields, folder } = prepared;
    const waitUntil = Date.now() + LEASE_WAIT_MS;
    for (let reopened = 0; reopened < 3;) {
      const now = new Date().toISOString();
      const session = await this.repo.openSession({
        id: newId(),
        user_id: user.id,
        parent_id: folder.id,
        file_name: fields.fileName,
        file_size: fields.fileSize,
        total_chunks: fields.totalChunks,
        backend: folder.backend,
        client_key: fields.uploadId ?? '',
        created_at: now,
        updated_at: now,
      });
      const lease = await ChunkLease.take(this.repo, session.id, fields.chunkIndex, token);
      if (lease === 'gone') reopened++;
      else if (lease !== 'busy') return { session, lease };
      else if (Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
      else throw chunkRefused();
    }
    throw chunkRefused();
  }

  /** A chunk sent again after it was recorded: accepted when its bytes equal the staged ones, else 409. */
  private async compareResent(store: BlobStore, sessionId: string, index: number, expected: number, body: ChunkSource): Promise<void> {
    const sent = createHash('sha256');
    for await (const piece of body.file(expected)) sent.update(piece);
    const staged = createHash('sha256');
    // Gone since (the upload completed meanwhile): nothing to compare with.
    const length = await store.staging.scanChunk(sessionId, index, index * CHUNK_SIZE, expected, (piece) => staged.update(piece)).catch(() => -1);
    if (length !== expected || staged.digest('hex') !== sent.digest('hex')) throw chunkRefused();
  }

  /** Stops the hashing thread (the server is closing). */
  close(): Promise<void> {
    return this.hashThread.close();
  }

  /**
   * A new running hash for an upload: on the hashing thread when its chunks are staged in
   * a local file, else in this process (chunks in order tapped as they stream, the others
   * read back from staging).
   */
  private digestOf(store: BlobStore, uploadId: string): Digest {
    const file = store.staging.localFile?.(uploadId);
    if (file !== undefined) return this.hashThread.digest(file, (chunk) => chunk.idx * CHUNK_SIZE);
    return inProcessDigest((chunk, visit) => store.staging.scanChunk(uploadId, chunk.idx, chunk.idx * CHUNK_SIZE, chunk.size, visit));
  }

  /** The session of an upload refused for its name, with its staged chunks (when nothing completes it meanwhile). */
  private async dropRefused(userId: string, folder: NodeRow, fields: ChunkFields): Promise<void> {
    try {
      const session = await this.repo.findSession(userId, folder.id, fields.fileName, fields.fileSize, fields.uploadId ?? '');
      if (!session || !(await this.repo.claimSession(session.id))) return;
      this.hashes.forget(session.id);
      const store = await this.stores.forBackend(session.backend);
      await store?.staging.discard(session.id);
    } catch (error) {
      this.log.warn({ err: error }, 'refused upload left for the clean-up job');
    }
  }

  /** A session whose first chunk failed holds nothing worth resuming: it goes. */
  private async dropIfEmpty(session: UploadSessionRow, store: BlobStore): Promise<void> {
    try {
      if ((await this.repo.chunksOf(session.id)).length === 0 && (await this.repo.claimSession(session.id))) {
        this.hashes.forget(session.id);
        await store.staging.discard(session.id);
      }
    } catch (error) {
      this.log.warn({ err: error, session: session.id }, 'empty upload session left for the clean-up job');
    }
  }

  /** Deletes a blob right away when a refused upload was its only reference. */
  private async collectIfUnreferenced(store: BlobStore, hash: string): Promise<void> {
    try {
      await this.repo.deleteUnreferenced(store.backend, hash, () => store.delete(blobKeyOf(hash)));
    } catch (error) {
      this.log.warn({ err: error, hash }, 'unreferenced blob left for the collector');
    }
  }

  private async folderFor(user: UserRow, path: string, fileName: string): Promise<NodeRow> {
    if (!isValidFileName(fileName)) throw badRequest('invalid_path');
    const folder = await this.access().require(user, path, 'CREATE');
    if (folder.folder !== 1) throw badRequest('invalid_path');
    return folder;
  }
}

/** Runs a read of a chunk's bytes; a part longer or shorter than declared becomes its 400. */
async function refusingBadLength<T>(fields: ChunkFields, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ChunkLengthError) {
      const last = fields.chunkIndex === fields.totalChunks - 1;
      throw badRequest(last && !error.tooLong ? 'upload_size_mismatch' : 'upload_chunk_invalid');
    }
    throw error;
  }
}

export interface PreparedChunk {
  user: UserRow;
  fields: ChunkFields;
  folder: NodeRow;
  root: NodeRow;
  store: BlobStore;
}

async function sha256Of(stream: Readable): Promise<{ hash: string; length: number }> {
  const hash = createHash('sha256');
  let length = 0;
  for await (const piece of stream) {
    hash.update(piece as Buffer);
    length += (piece as Buffer).length;
  }
  return { hash: hash.digest('hex'), length };
}
