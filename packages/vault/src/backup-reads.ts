import { BlobType } from './blob-index.js';
import { ChunkIds } from './chunk-ids.js';
import type { Chunker } from './chunker.js';
import { FileReaders } from './file-readers.js';
import { GarbageMeter } from './gc.js';
import type { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
import type { BackupStats } from './snapshot.js';
import { openRegularFile, READ_SIZE, readInWindow, type SourceEntry } from './source.js';
import type { BlobWriter } from './writer.js';

// How a backup reads the files it has to store: small ones ahead of their turn on reader
// threads, large ones through one window, each byte counted on a garbage meter.

// Reading ahead: while one file is chunked and hashed, the next small files of the same
// directory that will have to be read are already being read (bounded in count and
// bytes). Many small files are otherwise one disk round trip after another.
const PREFETCH_FILE_MAX = 1024 * 1024;
const PREFETCH_FILES = 128;
const PREFETCH_BYTES = 16 * 1024 * 1024;
// While a file this large is read, its chunks, sealed blobs and pack batches may pile up
// in the old generation between full collections (at a million files the server's 157 MB
// catalog, read last, took the peak ~45 MiB up): a full collection before it, a young one
// every LARGE_FILE_SLACK read, and a full one whenever the buffers and sealed blobs held rise
// LARGE_FILE_SLACK above what the last one left.
const LARGE_FILE = 64 * 1024 * 1024;
const LARGE_FILE_SLACK = 16 * 1024 * 1024;

/**
 * A file read ahead of its turn: its bytes, or, when it is one non-empty chunk, that
 * chunk's blob id and sealed blob (sealed by the reader thread).
 */
type ReadAhead = { pieces: Uint8Array[] } | { id: Buffer; sealed: Buffer; rawLength: number };

async function collect(entry: SourceEntry): Promise<ReadAhead> {
  const pieces: Uint8Array[] = [];
  for await (const piece of entry.open!()) pieces.push(piece);
  return { pieces };
}

/** True for a file small enough to be read whole ahead of its turn. */
function small(entry: SourceEntry): boolean {
  return entry.type === 'file' && entry.open !== undefined && entry.size > 0 && entry.size <= PREFETCH_FILE_MAX;
}

/** What a run's reads share: where blobs go, the run's figures, its garbage meter and signal. */
export interface ReadContext {
  repo: Repository;
  pool: CryptoPool;
  writer: BlobWriter;
  chunker: Chunker;
  stats: BackupStats;
  /** The run's meter, which every byte read (besides a large file's) is noted on. */
  garbage: GarbageMeter;
  signal?: AbortSignal | undefined;
}

/** Reads files into chunks for one backup run. */
export class BackupReads {
  // Small local files are read on reader threads; others through their own stream.
  // A file of at most the chunker's minimum is one chunk: the reader sends it sealed.
  // A read that fails there is done again through the entry's own stream, so a failure
  // is the source's own (its error, its message) exactly as without reader threads.
  private readonly readers: FileReaders;
  private readonly prefetched = new Map<SourceEntry, Promise<ReadAhead>>();
  private prefetchBytes = 0;
  private readonly largeGarbage = new GarbageMeter(LARGE_FILE_SLACK, { slack: LARGE_FILE_SLACK });
  // One window per run for reading large local files: the part of a chunk not cut yet
  // moves to its front and the next read lands behind it (no fresh buffer per read).
  private window: Buffer | null = null;

  constructor(private readonly run: ReadContext) {
    this.readers = new FileReaders(run.repo.key.macKey, run.repo.key.encKey, run.repo.config.chunker.min);
  }

  /** Whether the read-ahead holds as many files or bytes as it may. */
  get aheadFull(): boolean {
    return this.prefetched.size >= PREFETCH_FILES || this.prefetchBytes >= PREFETCH_BYTES;
  }

  /** Whether `entry` is a file that may be read ahead and is not yet. */
  mayReadAhead(entry: SourceEntry): boolean {
    return small(entry) && !this.prefetched.has(entry);
  }

  /** Starts reading `entry` ahead of its turn (see mayReadAhead). */
  readAhead(entry: SourceEntry): void {
    const pending = this.readWhole(entry);
    pending.catch(() => {}); // awaited when the file's turn comes
    this.prefetched.set(entry, pending);
    this.prefetchBytes += entry.size;
  }

  /** The read ahead of `entry`, if any, no longer counted as waiting (also for one not needed after all). */
  take(entry: SourceEntry): Promise<ReadAhead> | undefined {
    const pending = this.prefetched.get(entry);
    if (pending) {
      this.prefetched.delete(entry);
      this.prefetchBytes -= entry.size;
    }
    return pending;
  }

  /** Reads a file's content into stored chunks; their ids in order. */
  async read(entry: SourceEntry): Promise<string[]> {
    const { repo, pool, writer, chunker, stats, garbage, signal } = this.run;
    const pending = this.take(entry) ?? (small(entry) && entry.file !== undefined ? this.readWhole(entry) : undefined);
    const early = await pending;
    if (early && 'id' in early) {
      // One chunk, hashed and sealed by the reader (1 to chunker.min bytes).
      stats.bytesRead += early.rawLength;
      garbage.note(early.sealed.length);
      await writer.addSealed(early.id, BlobType.Data, early.sealed, early.rawLength);
      stats.filesRead++;
      return [early.id.toString('hex')];
    }
    const chunks = new ChunkIds(repo, pool, writer);
    chunker.reset();
    const cutAll = async (data: Buffer, end: number, final: boolean): Promise<number> => {
      let start = 0;
      for (;;) {
        const cut = chunker.cut(data, start, end, final);
        if (cut <= 0) return start;
        // Copy: the chunk goes to a worker in a buffer of its own.
        await chunks.add(Buffer.from(data.subarray(start, start + cut)));
        start += cut;
      }
    };
    // A large local file is read into the window; one that cannot be opened goes through
    // the entry's own stream, whose error is the source's own.
    const handle = !early && entry.file !== undefined ? await openRegularFile(entry.file).catch(() => undefined) : undefined;
    if (handle) {
      const buffer = (this.window ??= Buffer.allocUnsafeSlow(repo.config.chunker.max + READ_SIZE));
      const cutWindow = (end: number, final: boolean): Promise<number> => {
        signal?.throwIfAborted();
        return cutAll(buffer, end, final);
      };
      const large = entry.size >= LARGE_FILE;
      if (large) this.largeGarbage.collectAll();
      try {
        await readInWindow(handle, buffer, cutWindow, (n) => {
          stats.bytesRead += n;
          // Each byte read passes through a few short-lived buffers (chunk, sealed, pack).
          if (large) this.largeGarbage.note(n);
          else garbage.note(n);
        });
      } finally {
        await handle.close();
      }
    } else {
      let buf: Buffer = Buffer.alloc(0);
      for await (const piece of early?.pieces ?? entry.open!()) {
        signal?.throwIfAborted();
        stats.bytesRead += piece.length;
        garbage.note(piece.length);
        buf = buf.length === 0 ? Buffer.from(piece.buffer, piece.byteOffset, piece.length) : Buffer.concat([buf, piece]);
        buf = buf.subarray(await cutAll(buf, buf.length, false));
      }
      if (buf.length > 0) await cutAll(buf, buf.length, true);
    }
    stats.filesRead++;
    return chunks.all();
  }

  close(): Promise<void> {
    return this.readers.close();
  }

  private readWhole(entry: SourceEntry): Promise<ReadAhead> {
    return entry.file !== undefined
      ? this.readers.read(entry.file, entry.size).then(
          (whole) => ('id' in whole ? whole : { pieces: [whole.bytes] }),
          () => collect(entry),
        )
      : collect(entry);
  }
}
