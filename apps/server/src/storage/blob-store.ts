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
  /** Reads a blob, or part of it. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of a blob, or null when it does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Deletes a blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under a prefix (for orphan collection). */
  list(prefix: string): AsyncIterable<string>;
  /** True when the store answers (health). */
  healthy(): Promise<boolean>;
}
