import type { UploadConflictAction } from '@bogwan/contracts';

/** Status of one file in the upload queue. */
export const UPLOAD_STATUSES = ['queued', 'uploading', 'paused', 'done', 'failed', 'canceled'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** What the queue needs of a file: its bytes, name and modification time (a `File` fits). */
export interface UploadSource {
  readonly size: number;
  readonly name: string;
  readonly lastModified: number;
  slice(start?: number, end?: number): Blob;
}

/** The part of a task that survives a reload: enough to ask the server what it has. */
export interface UploadDescriptor {
  id: string;
  /** Folder the file goes to. */
  path: string;
  /** Name the file gets there. */
  name: string;
  size: number;
  lastModified: number;
  createdAt: number;
  /** What the server does when the name is taken (chosen before the upload started; `fail` when absent). */
  onConflict?: UploadConflictAction;
}

/** One file of the queue as the interface shows it. */
export interface UploadTask extends UploadDescriptor {
  status: UploadStatus;
  totalChunks: number;
  /** Bytes the server has confirmed plus bytes of chunks on the wire. */
  uploadedBytes: number;
  /** 0 to 100. */
  progress: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  /** Message key of the last failure. */
  error?: string;
  /** True when the failure may pass if tried again (network, 5xx, 429). */
  retryable?: boolean;
  /** True after a reload when the file's bytes were not kept and the user must pick it again. */
  needsFile?: boolean;
}

/** One chunk as the transport sends it (the multipart fields of POST /api/file/upload). */
export interface ChunkRequest {
  path: string;
  fileName: string;
  chunkIndex: number;
  totalChunks: number;
  isLastChunk: boolean;
  fileSize: number;
  data: Blob;
  /** The file's upload id (the task's id, kept across reloads): its chunks share a session of their own on the server. */
  uploadId?: string;
  /** The file's conflict choice, sent with every chunk. */
  onConflict?: UploadConflictAction;
}

export interface ChunkAnswer {
  complete: boolean;
}

/** How chunks reach the server; the browser uses XHR, tests use a fake. */
export interface UploadTransport {
  /** Chunk indexes the server already holds for this file (empty for a new upload). */
  status(query: { path: string; fileName: string; fileSize: number; uploadId?: string }, signal: AbortSignal): Promise<number[]>;
  /** Tells the server the user stopped this upload (its task shows canceled; a retry goes on). */
  cancel?(query: { path: string; fileName: string; fileSize: number; uploadId?: string }): Promise<void>;
  /** Sends one chunk; `onProgress` gets the bytes of this chunk sent so far. */
  sendChunk(chunk: ChunkRequest, onProgress: (sent: number) => void, signal: AbortSignal): Promise<ChunkAnswer>;
}

/** Where queued uploads are kept across reloads. */
export interface UploadPersistence {
  save(descriptor: UploadDescriptor, source: UploadSource): Promise<void>;
  remove(id: string): Promise<void>;
  /** Every kept upload; `source` is missing when the browser could not keep the bytes. */
  load(): Promise<Array<{ descriptor: UploadDescriptor; source?: UploadSource }>>;
}

/** A failure of a transport call. */
export class UploadError extends Error {
  readonly status: number;
  readonly messageKey: string;

  constructor(status: number, messageKey: string) {
    super(messageKey);
    this.name = 'UploadError';
    this.status = status;
    this.messageKey = messageKey;
  }
}

/** Network failures (status 0), server errors and rate limits pass when tried again later. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof UploadError)) return false;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}
