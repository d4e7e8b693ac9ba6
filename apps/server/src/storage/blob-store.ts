import type { Readable } from 'node:stream';

/** A byte range, both ends included (as in HTTP `Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file contents live: a local directory or an S3-compatible bucket. Blobs are
 * written once under a key and never changed in place; a write is durable (fsync, or
 * the bucket's acknowledgement) before `put` resolves, so a database row may point at it.
 */
export interface BlobStore {
  /** `server` or `cloud`: the backend this store serves. */
  readonly backend: 'server' | 'cloud';
  /** Writes a stream under `key` atomically (temporary name, then rename or one PUT); answers its size. */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** Reads a blob, or part of it; a missing key rejects with `BlobMissingError`. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of a blob, or null when it does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Deletes a blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every blob under a prefix with its last write time (for orphan collection); staging is not listed. */
  list(prefix: string): AsyncIterable<StoredBlob>;
  /** True when the store answers (health). */
  healthy(): Promise<boolean>;
  /** The staging area of chunked uploads, before their bytes become a blob. */
  readonly staging: UploadStaging;
}

/** A key found by `list`. */
export interface StoredBlob {
  key: string;
  modified: Date;
}

/** One staged upload as the clean-up job sees it. */
export interface StagedUpload {
  uploadId: string;
  /** Last time a chunk was written. */
  modified: Date;
}

/** How a chunk is written: see `UploadStaging.writeChunk`. */
export interface ChunkWriteOptions {
  deferSync?: boolean;
}

/**
 * Chunks of an upload in progress, kept apart from blobs. Chunk `index` holds the bytes
 * at `offset` of the file; a chunk written again replaces the earlier bytes. Nothing here
 * is visible as a blob until `commit`.
 */
export interface UploadStaging {
  /**
   * Stores one chunk of `length` bytes durably; answers the size written. A failed or
   * short stream rejects, and the caller does not record the chunk. With `deferSync` the
   * chunk need not be durable on its own: the caller acknowledges nothing before `commit`,
   * which makes the whole upload durable (a WebDAV PUT is answered only then).
   */
  writeChunk(
    uploadId: string,
    index: number,
    offset: number,
    length: number,
    body: AsyncIterable<Buffer>,
    options?: ChunkWriteOptions,
  ): Promise<{ size: number }>;
  /**
   * Passes the staged bytes of one chunk (`length` bytes at `offset` of the file) to
   * `visit`, in order; answers how many bytes there were. A piece is valid only during its
   * call (the memory may be reused for the next): a reader that hashes needs no copies.
   */
  scanChunk(uploadId: string, index: number, offset: number, length: number, visit: (piece: Buffer) => void): Promise<number>;
  /**
   * The local file that holds an upload's chunks at their offsets, when staging is one
   * file on this machine (another thread may read it); absent for a bucket.
   */
  localFile?(uploadId: string): string;
  /** The staged file, chunk after chunk (`chunkCount` chunks, `size` bytes in all). */
  read(uploadId: string, chunkCount: number, size: number): Promise<Readable>;
  /** Makes the staged file the blob `key` (rename on disk, a streamed copy in a bucket) and drops the chunks. */
  commit(uploadId: string, chunkCount: number, size: number, key: string): Promise<void>;
  /** Drops every chunk of an upload; a missing upload is not an error. */
  discard(uploadId: string): Promise<void>;
  /** Every staged upload (for the 24-hour clean-up). */
  list(): AsyncIterable<StagedUpload>;
}

/**
 * The store did not answer (a bucket unreachable, or answering 5xx after the SDK's
 * retries): nothing was changed by the call that met it, and it can be tried again.
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the storage could not be reached: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** `get` of a key that holds nothing. */
export class BlobMissingError extends Error {
  constructor(readonly key: string) {
    super(`no blob under ${key}`);
    this.name = 'BlobMissingError';
  }
}

/** The key of a blob with this SHA-256 (hex): sharded by its first two bytes, `ab/cd/abcd…`. */
export function blobKeyOf(hash: string): string {
  return `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
}

const KEY_RULE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Refuses keys that are not plain relative names (keys never come from users, but a store never trusts them). */
export function assertKey(key: string): void {
  if (!KEY_RULE.test(key) || key.split('/').some((s) => s === '..' || s === '.')) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
}

/** Upload ids name staging files and prefixes; the same rule as keys, one segment. */
export function assertUploadId(uploadId: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(uploadId)) throw new Error(`invalid upload id: ${JSON.stringify(uploadId)}`);
}
