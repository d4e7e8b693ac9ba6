import { createHash } from 'node:crypto';
import { CHUNK_SIZE, joinPath } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { type BlobStore, blobKeyOf } from '../../storage/blob-store.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { nodeTarget } from '../files/file-audit.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { Caller } from '../files/files.service.js';
import type { NodeRow } from '../files/ports.js';
import type { TransferRepo } from '../transfer/transfer.repo.js';
import { storeMissing } from '../transfer/upload.service.js';
import type { WebhookEmitter } from '../webhooks/ports.js';
import { DavError } from './dav-errors.js';
import { splitItem } from './dav-paths.js';

/** Where a PUT goes: over an existing file, or new in a folder. Checked before a byte is read. */
export type PutPlan =
  | { caller: Caller; path: string; existing: NodeRow; folder: NodeRow; root: NodeRow }
  | { caller: Caller; path: string; existing: undefined; folder: NodeRow; root: NodeRow };

/**
 * The checks a PUT passes before it replaces a file that took its name while its body was
 * stored (UPDATE on that file, the lock check of the path); throws to refuse.
 */
export type ReplaceCheck = (taken: NodeRow) => Promise<void>;

/** How often a PUT tries to add, or replace what took its name, before it gives up (409). */
const PLACE_TRIES = 5;

interface StoredContent {
  size: number;
  contentHash: string;
  blobKey: string;
  backend: string;
}

function isAppError(error: unknown, key: string): boolean {
  return error instanceof AppError && error.messageKey === key;
}

/** The answer of a stored PUT. */
export interface PutResult {
  created: boolean;
  node: NodeRow;
}

/**
 * WebDAV PUT: the body streamed into the backend's upload staging (never held whole), hashed
 * on its way, then kept under its SHA-256 like a web upload (identical content stored once,
 * a pin holding it meanwhile) and added to the tree, or made the new content of the file it
 * replaces. The same activity entry, webhook and search indexing as a web upload follow.
 */
export class DavUploads {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly stores: BlobStores,
    private readonly transfers: TransferRepo,
    /** The `file.upload` record is written in the transaction that adds or replaces the file, as for web uploads. */
    private readonly audit: AuditRecorder,
    private readonly hooks: WebhookEmitter,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * The checks before the body: a folder is 405; over a file UPDATE, a new file CREATE on its
   * folder; a missing folder 409 (RFC 4918 9.7.1); the top level takes no files (403); a
   * declared length past the root's room 507.
   */
  async plan(caller: Caller, path: string, declaredLength: number | undefined): Promise<PutPlan> {
    const { folder: folderPath } = splitItem(path);
    if (path === '/') throw new DavError(405);
    const existing = await this.tree.resolve(path);
    if (existing?.folder === 1) throw new DavError(405);
    if (folderPath === '/') throw new DavError(403);
    let folder: NodeRow;
    if (existing) {
      await this.access.requireOn(caller.user, existing, 'UPDATE');
      folder = (await this.tree.resolve(folderPath))!;
    } else {
      const parent = await this.tree.resolve(folderPath);
      if (!parent || parent.folder !== 1) throw new DavError(409);
      await this.access.requireOn(caller.user, parent, 'CREATE');
      folder = parent;
    }
    if (!folder) throw new DavError(409);
    const root = await this.tree.rootOf(folder);
    if (declaredLength !== undefined && declaredLength > (await this.room(root, existing))) throw new DavError(507);
    return existing ? { caller, path, existing, folder, root } : { caller, path, existing: undefined, folder, root };
  }

  /**
   * Stores the body. `declaredLength` is the Content-Length (undefined for chunked transfer
   * encoding); a body that ends short of it, or runs past it, is 400; one that passes the
   * root's room while it streams is 507. Nothing is kept of a refused body.
   */
  async store(plan: PutPlan, body: AsyncIterable<Buffer>, declaredLength: number | undefined, replaceTaken?: ReplaceCheck): Promise<PutResult> {
    const store = await this.stores.forBackend(plan.folder.backend);
    if (!store) throw storeMissing();
    const room = await this.room(plan.root, plan.existing);
    const uploadId = newId();
    try {
      const { hash, size, chunks } = await stage(store, uploadId, body, declaredLength, room);
      const key = blobKeyOf(hash);
      const pin = await this.transfers.pinBlob(store.backend, hash, size);
      let outcome: PutResult;
      try {
        // Identical content already stored (the pin keeps it there): the staged copy is dropped.
        if ((await store.stat(key))?.size !== size) await store.staging.commit(uploadId, chunks, size, key);
        outcome = await this.place(plan, { size, contentHash: hash, blobKey: key, backend: store.backend }, replaceTaken);
      } finally {
        await this.transfers.unpinBlob(pin);
        await this.collectIfUnreferenced(store, hash);
      }
      const { node } = outcome;
      const path = joinPath(splitItem(plan.path).folder, node.name);
      // The staged upload is the event: told once.
      this.hooks.emit('upload', { path, name: node.name, size: node.size, userId: plan.caller.user.id }, `upload:${uploadId}`);
      return outcome;
    } finally {
      await store.staging.discard(uploadId).catch((error) => this.log.warn({ err: error, uploadId }, 'staged WebDAV upload not removed'));
    }
  }

  /**
   * Adds the stored content as the new file, or makes it the content of the file it replaces.
   * A name taken meanwhile (another PUT of the same new name finished first: rclone with
   * several transfers, an office autosave) makes the PUT a replace when `replaceTaken` is
   * given: the last writer wins, as clients expect. The file found there passes `replaceTaken`
   * (UPDATE and the lock check, on the file as it is now) and is replaced in the tree's
   * transaction only if it is still that name in that folder; else the whole step starts again.
   */
  private async place(plan: PutPlan, content: StoredContent, replaceTaken: ReplaceCheck | undefined): Promise<PutResult> {
    const { size } = content;
    const audit = {
      recorder: this.audit,
      entry: (added: NodeRow, path: string) => ({ action: 'file.upload' as const, target: nodeTarget(added, path), params: { size, client: 'webdav' } }),
    };
    if (plan.existing) return { created: false, node: await this.tree.replaceFile(plan.existing, content, { audit }) };
    const { name } = splitItem(plan.path);
    for (let attempt = 1; ; attempt++) {
      try {
        return { created: true, node: await this.tree.addFile(plan.folder, { name, ...content, ownerId: plan.caller.user.id }, { audit }) };
      } catch (error) {
        if (!replaceTaken || !isAppError(error, 'file_exists_warning') || attempt >= PLACE_TRIES) throw error;
      }
      const taken = await this.tree.resolve(plan.path);
      if (!taken) continue;
      if (taken.folder === 1) throw new DavError(405);
      await replaceTaken(taken);
      try {
        return { created: false, node: await this.tree.replaceFile(taken, content, { audit, at: { parentId: plan.folder.id, name: taken.name } }) };
      } catch (error) {
        // Gone from there since it was found (trashed, moved, renamed): add again.
        if (!isAppError(error, 'folder_not_found') || attempt >= PLACE_TRIES) throw error;
      }
    }
  }

  /** Bytes the file may hold: what the root's limit leaves, plus what the file replaced holds now. */
  private async room(root: NodeRow, existing: NodeRow | undefined): Promise<number> {
    const current = await this.tree.repo.findById(root.root_id);
    if (current?.volume_limit == null) return Number.POSITIVE_INFINITY;
    // Replacing a file frees only what the retention lets go (the old content stays as a version).
    const freed = existing ? await this.tree.bytesFreedByReplacing(existing) : 0;
    return current.volume_limit - current.usage_bytes + freed;
  }

  private async collectIfUnreferenced(store: BlobStore, hash: string): Promise<void> {
    try {
      await this.transfers.deleteUnreferenced(store.backend, hash, () => store.delete(blobKeyOf(hash)));
    } catch (error) {
      this.log.warn({ err: error, hash }, 'unreferenced blob left for the collector');
    }
  }
}

/**
 * Streams a body into staging as chunks of CHUNK_SIZE at their offsets (the layout web
 * uploads use, so `commit` applies as is). With a known length each chunk streams straight
 * through; without one (chunked encoding) a chunk is gathered first (at most CHUNK_SIZE in
 * memory), since a bucket's staging PUT needs its length. Nothing is acknowledged before the
 * commit, so chunks are written without a sync each: the commit makes the whole body durable.
 */
async function stage(store: BlobStore, uploadId: string, body: AsyncIterable<Buffer>, declared: number | undefined, room: number) {
  const hash = createHash('sha256');
  let size = 0;
  const reader = new PieceReader(body, (piece) => {
    size += piece.length;
    if (size > room) throw new DavError(507);
    if (declared !== undefined && size > declared) throw new DavError(400);
    hash.update(piece);
  });
  let chunks = 0;
  if (declared !== undefined) {
    const count = Math.max(1, Math.ceil(declared / CHUNK_SIZE));
    for (let index = 0; index < count; index++) {
      const length = index < count - 1 ? CHUNK_SIZE : declared - CHUNK_SIZE * (count - 1);
      await store.staging.writeChunk(uploadId, index, index * CHUNK_SIZE, length, reader.take(length), { deferSync: true });
      chunks++;
    }
    if (size !== declared || !(await reader.ended())) throw new DavError(400);
  } else {
    for (let index = 0; ; index++) {
      const pieces: Buffer[] = [];
      let length = 0;
      for await (const piece of reader.take(CHUNK_SIZE)) {
        pieces.push(Buffer.from(piece));
        length += piece.length;
      }
      if (length === 0 && index > 0) break;
      await store.staging.writeChunk(uploadId, index, index * CHUNK_SIZE, length, inOrder(pieces), { deferSync: true });
      chunks++;
      if (length < CHUNK_SIZE) break;
    }
  }
  return { hash: hash.digest('hex'), size, chunks };
}

async function* inOrder(pieces: Buffer[]): AsyncIterable<Buffer> {
  yield* pieces;
}

/** Hands out a stream's bytes in runs of a given length, every byte passing `tap` once. */
class PieceReader {
  private readonly source: AsyncIterator<Buffer>;
  private leftover: Buffer | undefined;
  private done = false;

  constructor(
    body: AsyncIterable<Buffer>,
    private readonly tap: (piece: Buffer) => void,
  ) {
    this.source = body[Symbol.asyncIterator]();
  }

  /** Up to `length` bytes (fewer only when the stream ends). */
  async *take(length: number): AsyncIterable<Buffer> {
    let left = length;
    while (left > 0) {
      const piece = await this.next();
      if (!piece) return;
      const part = piece.length > left ? piece.subarray(0, left) : piece;
      if (piece.length > left) this.leftover = piece.subarray(left);
      left -= part.length;
      yield part;
    }
  }

  /** True when nothing is left. */
  async ended(): Promise<boolean> {
    const piece = await this.next();
    if (!piece) return true;
    this.leftover = piece;
    return false;
  }

  private async next(): Promise<Buffer | undefined> {
    if (this.leftover) {
      const piece = this.leftover;
      this.leftover = undefined;
      return piece;
    }
    if (this.done) return undefined;
    let result: IteratorResult<Buffer>;
    try {
      result = await this.source.next();
    } catch {
      // The client went away or broke the framing: the body is not what it declared.
      throw new DavError(400);
    }
    const { value, done } = result;
    if (done) {
      this.done = true;
      return undefined;
    }
    const piece = Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
    this.tap(piece);
    return piece;
  }
}
