// The storage a repository lives on. Every file is written once and never changed
// in place, so a backend only needs whole-file writes that are atomic.
import type { Spool } from './spool.js';

export type { Spool } from './spool.js';

/** One stored file as listed by a backend. */
export interface StoredFile {
  name: string;
  size: number;
}

/** Minimal storage interface shared by the local directory and S3 drivers. */
export interface Backend {
  /** Human-readable location, for messages. */
  readonly location: string;
  /** Preferred pack size for this medium (bigger on object stores). */
  readonly packSize: number;
  get(name: string): Promise<Buffer>;
  /**
   * Reads `length` bytes at `offset`. Given `into` (at least `length` bytes), a backend
   * may read into it and return a view of it instead of a new buffer.
   */
  getRange(name: string, offset: number, length: number, into?: Buffer): Promise<Buffer>;
  /** Atomic: readers see either nothing or the whole file. */
  put(name: string, data: Buffer): Promise<void>;
  /**
   * Starts a file written in pieces and named at the end (a pack), kept on local disk
   * meanwhile; its commit is as atomic as put().
   */
  spool(): Promise<Spool>;
  list(prefix: string): Promise<StoredFile[]>;
  delete(name: string): Promise<void>;
  stat(name: string): Promise<StoredFile | null>;
  /**
   * Partial files a killed writer left under `prefix` (local temp files; object stores
   * have none, a PUT is atomic). Names can be passed to delete().
   */
  leftovers?(prefix: string): Promise<StoredFile[]>;
  close(): Promise<void>;
}

/** Raised when a named file does not exist in the backend. */
export class NotFoundError extends Error {
  constructor(name: string) {
    super(`not found: ${name}`);
    this.name = 'NotFoundError';
  }
}

/**
 * Raised when the storage could not be reached (connection refused or reset, name not
 * resolved, timeouts, the service answering 5xx) after the driver's retries. Nothing
 * half-written is left behind; the run that met it can simply be started again.
 */
export class UnreachableError extends Error {
  constructor(location: string, cause: unknown) {
    super(`the repository at ${location} could not be reached: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'UnreachableError';
  }
}
