import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BLOB_MARKER, blobDirectoryState, isBlobDirectory, markBlobDirectory } from './blob-marker.js';
import {
  assertKey,
  assertUploadId,
  BlobMissingError,
  type BlobStore,
  type ByteRange,
  type ChunkWriteOptions,
  type StagedUpload,
  type StoredBlob,
  type UploadStaging,
} from './blob-store.js';

const TMP = 'tmp';
const UPLOADS = 'uploads';
/** Reads in 1 MiB pieces: far fewer syscalls and event-loop turns than the 64 KiB default. */
const READ_BUFFER = 1 << 20;
/** Top-level entries of the root that are not blobs. */
const RESERVED = new Set([TMP, UPLOADS, BLOB_MARKER]);

/**
 * Blobs as files under one directory (setting `server.path`). A blob is written to
 * `tmp/`, fsynced, renamed into place and its directory fsynced, so a key either names
 * complete bytes or nothing, also after a power cut.
 */
export class LocalBlobStore implements BlobStore {
  readonly backend = 'server' as const;
  readonly staging: UploadStaging;

  constructor(readonly root: string) {
    // A directory first used now becomes a marked blob directory; one that already held
    // other things is used as configured but never marked (clean-up leaves it alone).
    const fresh = ['missing', 'empty'].includes(blobDirectoryState(root));
    fs.mkdirSync(path.join(root, TMP), { recursive: true });
    fs.mkdirSync(path.join(root, UPLOADS), { recursive: true });
    if (fresh) markBlobDirectory(root);
    this.staging = new LocalStaging(this);
  }

  /** True when the root carries the blob marker: only then may clean-up delete in it. */
  get marked(): boolean {
    return isBlobDirectory(this.root);
  }

  /** The file of a key (keys are checked, so never outside the root). */
  pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const temp = this.tempFile();
    let size = 0;
    const handle = await fs.promises.open(temp, 'wx');
    try {
      size = await writeAll(handle, body, 0);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => {});
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    await this.moveInto(temp, target);
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await fs.promises.open(this.pathOf(key), 'r').catch((error) => {
      throw isMissing(error) ? new BlobMissingError(key) : error;
    });
    if (range && range.end < range.start) {
      await handle.close();
      return Readable.from([]);
    }
    // A small file or range is read into a buffer of its own size, not a whole MiB (a download
    // of 16 KiB allocated 1 MiB for its one read).
    const highWaterMark = range ? Math.min(READ_BUFFER, range.end - range.start + 1) : READ_BUFFER;
    return handle.createReadStream({ ...(range ? { start: range.start, end: range.end } : {}), highWaterMark });
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await fs.promises.stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredBlob> {
    const keys = walkFiles(this.root, '', (relative) => {
      const top = relative.split('/')[0]!;
      return !RESERVED.has(top) && (relative.startsWith(prefix) || prefix.startsWith(relative));
    });
    for await (const key of keys) {
      if (!key.startsWith(prefix)) continue;
      const s = await fs.promises.stat(path.join(this.root, key)).catch(() => null);
      if (s) yield { key, modified: s.mtime };
    }
  }

  /**
   * Writes and removes a two-byte file. Synchronously, on purpose: the write reaches the page
   * cache only (tens of microseconds on a local disk), and each asynchronous step waited for a
   * turn of the event loop behind every request at work, which kept `/api/health` at 1.5 s
   * (p99) under load. A directory that hangs holds the event loop here: the liveness check
   * then fails too, which is what an orchestrator should see.
   */
  async healthy(): Promise<boolean> {
    const probe = path.join(this.root, TMP, `.health-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      fs.writeFileSync(probe, 'ok');
      fs.rmSync(probe, { force: true });
      return true;
    } catch {
      return false;
    }
  }

  /** Removes temporary files older than `before` (left by a crash mid-write); only in a marked root. */
  async sweepTemp(before: Date): Promise<number> {
    let removed = 0;
    if (!this.marked) return removed;
    const dir = path.join(this.root, TMP);
    for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      const s = await fs.promises.stat(file).catch(() => null);
      if (s && s.mtime < before) {
        await fs.promises.rm(file, { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }

  tempFile(): string {
    return path.join(this.root, TMP, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  /** Renames a complete, fsynced file to `target` and fsyncs the directory that now names it. */
  async moveInto(source: string, target: string): Promise<void> {
    const dir = path.dirname(target);
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.rename(source, target);
    await fsyncDir(dir);
  }
}

/** Chunks of one upload are written at their offset into one file, `uploads/<id>`; commit renames it. */
/** A staged file's background flush: whether one runs, and the first error any of them met. */
interface Writeback {
  running: boolean;
  error?: unknown;
  done: Promise<void>;
}

/** Background flushes of staged files written with `deferSync`, by file (one process stages a PUT from start to commit). */
const writebacks = new Map<string, Writeback>();

/**
 * Starts an fdatasync of a staged file on the thread pool unless one is running: the pages
 * written so far go to the disk while the next chunk arrives. Without it a 1 GiB WebDAV PUT
 * stayed in the page cache (the kernel starts writing back only at 10 % of memory) and its
 * commit waited ~2 s for the whole file. Nothing waits for it here; `finishWriteback` does.
 */
function startWriteback(file: string): void {
  const before = writebacks.get(file);
  if (before?.running) return;
  const entry: Writeback = { running: true, error: before?.error, done: Promise.resolve() };
  entry.done = (async () => {
    const handle = await fs.promises.open(file, 'r');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  })().then(
    () => {
      entry.running = false;
    },
    (error: unknown) => {
      entry.running = false;
      entry.error ??= error;
    },
  );
  writebacks.set(file, entry);
}

/**
 * Waits for a staged file's background flush and rejects with the first error one met: after
 * a failed fdatasync Linux may report the next one as a success for the same lost pages, so
 * the commit's own sync alone would not tell.
 */
async function finishWriteback(file: string): Promise<void> {
  const entry = writebacks.get(file);
  if (!entry) return;
  writebacks.delete(file);
  await entry.done;
  if (entry.error !== undefined) throw entry.error;
}

class LocalStaging implements UploadStaging {
  constructor(private readonly store: LocalBlobStore) {}

  private fileOf(uploadId: string): string {
    assertUploadId(uploadId);
    return path.join(this.store.root, UPLOADS, uploadId);
  }

  localFile(uploadId: string): string {
    return this.fileOf(uploadId);
  }

  async writeChunk(
    uploadId: string,
    _index: number,
    offset: number,
    _length: number,
    body: AsyncIterable<Buffer>,
    options: ChunkWriteOptions = {},
  ): Promise<{ size: number }> {
    const file = this.fileOf(uploadId);
    const created = !fs.existsSync(file);
    // O_DSYNC: each write returns once its bytes are on the disk, while the next MiB is
    // still arriving, instead of one fsync at the end that the request waits for
    // (docs/decisions.md, "Files: transfer"). The chunk is durable when the last write returns.
    // Deferred: the page cache takes the bytes, the kernel writes them back meanwhile, and
    // `commit` syncs the file once (docs/decisions/files.md, "WebDAV PUT staged without a sync per write").
    const sync = options.deferSync ? 0 : (O_DSYNC ?? 0);
    const handle = await fs.promises.open(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | sync, 0o600);
    try {
      const size = await writeAll(handle, body, offset);
      if (options.deferSync) {
        startWriteback(file);
        return { size };
      }
      if (O_DSYNC === undefined) await handle.sync();
      if (created) await fsyncDir(path.dirname(file));
      return { size };
    } finally {
      await handle.close();
    }
  }

  async scanChunk(uploadId: string, _index: number, offset: number, length: number, visit: (piece: Buffer) => void): Promise<number> {
    const handle = await fs.promises.open(this.fileOf(uploadId), 'r');
    try {
      // One buffer for the whole chunk, read into again and again: no garbage per MiB.
      const buffer = Buffer.allocUnsafeSlow(Math.max(1, Math.min(READ_BUFFER, length)));
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, length - done), offset + done);
        if (bytesRead === 0) break;
        visit(buffer.subarray(0, bytesRead));
        done += bytesRead;
      }
      return done;
    } finally {
      await handle.close();
    }
  }

  async read(uploadId: string, _chunkCount: number, size: number): Promise<Readable> {
    const handle = await fs.promises.open(this.fileOf(uploadId), 'r');
    if (size === 0) {
      await handle.close();
      return Readable.from([]);
    }
    return handle.createReadStream({ start: 0, end: size - 1, highWaterMark: READ_BUFFER });
  }

  async commit(uploadId: string, _chunkCount: number, size: number, key: string): Promise<void> {
    const file = this.fileOf(uploadId);
    const target = this.store.pathOf(key);
    await finishWriteback(file);
    const handle = await fs.promises.open(file, 'r+');
    try {
      await handle.truncate(size);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.store.moveInto(file, target);
  }

  async discard(uploadId: string): Promise<void> {
    await finishWriteback(this.fileOf(uploadId)).catch(() => {});
    await fs.promises.rm(this.fileOf(uploadId), { force: true });
  }

  async *list(): AsyncIterable<StagedUpload> {
    const dir = path.join(this.store.root, UPLOADS);
    for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
      const s = await fs.promises.stat(path.join(dir, name)).catch(() => null);
      if (s?.isFile()) yield { uploadId: name, modified: s.mtime };
    }
  }
}

/** Synchronised data writes (undefined where the platform has none: an fsync follows instead). */
const O_DSYNC: number | undefined = fs.constants.O_DSYNC;

/** Pieces are gathered up to this many bytes and written with one `writev`. */
const WRITE_BATCH = 1 << 20;
/** And never more pieces than one `writev` takes (IOV_MAX on Linux). */
const MAX_PIECES = 1024;
/** Writes of one chunk that may wait for the disk at once (each `O_DSYNC` write waits for its own bytes). */
const WRITES_IN_FLIGHT = 2;

/**
 * Writes a stream at `position` of an open file; answers the byte count. The pieces a
 * socket delivers (64 KiB at most) are gathered and written with one `writev` per MiB:
 * no copy, and a sixteenth of the system calls and promise turns. The next MiB is
 * gathered while the last ones are written (WRITES_IN_FLIGHT), so the socket is read on
 * instead of waiting for the disk.
 */
async function writeAll(handle: fs.promises.FileHandle, body: AsyncIterable<Buffer | string>, position: number): Promise<number> {
  let queued = 0;
  let batch: Buffer[] = [];
  let batched = 0;
  const writing: Promise<void>[] = [];
  const flush = () => {
    const write = writeFully(handle, batch, batched, position + queued);
    // Seen when it is waited for; until then it must not count as unhandled.
    write.catch(() => {});
    writing.push(write);
    queued += batched;
    batch = [];
    batched = 0;
  };
  // Every write ends before the caller closes the file; the first failure is the answer.
  const settle = async () => {
    const failed = (await Promise.allSettled(writing)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    for await (const chunk of body) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (buffer.length === 0) continue;
      batch.push(buffer);
      batched += buffer.length;
      if (batched >= WRITE_BATCH || batch.length >= MAX_PIECES) {
        if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
        flush();
      }
    }
  } catch (error) {
    await Promise.allSettled(writing);
    throw error;
  }
  if (batched > 0) flush();
  await settle();
  return queued;
}

/** Writes `bytes` bytes of `buffers` at `at`, however many calls that takes. */
async function writeFully(handle: fs.promises.FileHandle, buffers: Buffer[], bytes: number, at: number): Promise<void> {
  let done = 0;
  while (done < bytes) {
    const { bytesWritten } = await handle.writev(done === 0 ? buffers : unwritten(buffers, done), at + done);
    done += bytesWritten;
  }
}

/** What is left of `buffers` once their first `done` bytes are written. */
function unwritten(buffers: Buffer[], done: number): Buffer[] {
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (done >= buffer.length) {
      done -= buffer.length;
      continue;
    }
    rest.push(done > 0 ? buffer.subarray(done) : buffer);
    done = 0;
  }
  return rest;
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function* walkFiles(root: string, relative: string, include: (relative: string) => boolean): AsyncIterable<string> {
  const entries = await fs.promises.readdir(path.join(root, relative), { withFileTypes: true }).catch((error) => {
    if (isMissing(error)) return [];
    throw error;
  });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (!include(child)) continue;
    if (entry.isDirectory()) yield* walkFiles(root, child, include);
    else if (entry.isFile()) yield child;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
