// The engine's native addons, built at install time at the package's root (from src/ and
// dist/ alike) by scripts/build-native.mjs. Each is optional: where one was not built (the
// install warns) or cannot load, the engine does the same work in JavaScript.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The memory helper (native/release-memory.c). */
export const MEMORY_HELPER = new URL('../build/Release/release_memory.node', import.meta.url);
/** The blob codec (native/blob-codec.c). */
export const BLOB_CODEC = new URL('../build/Release/blob_codec.node', import.meta.url);

/** Loads an addon; null where it is missing or refuses to load. */
export function loadAddon<T>(file: URL): T | null {
  try {
    return createRequire(import.meta.url)(fileURLToPath(file)) as T;
  } catch {
    return null;
  }
}

/**
 * Blob work on libuv's thread pool, byte for byte what codec.ts and blob-id.ts do. Inputs
 * are held until the promise settles: the caller must not change them meanwhile.
 */
export interface NativeCodec {
  /** The blob id (HMAC-SHA-256 under macKey). */
  hash(macKey: Uint8Array, data: Uint8Array): Promise<Buffer>;
  /** sealBlob(encKey, id, data, compress). */
  seal(encKey: Uint8Array, id: Uint8Array, data: Uint8Array, compress: boolean): Promise<Buffer>;
  /**
   * Reads files whole; four numbers per file in `outcomes`: kind (NATIVE_READ), offset and
   * length in `buffer`, and for a sealed one the bytes' length (its id is the 32 bytes at
   * 32 × the file's index).
   */
  readFiles(encKey: Uint8Array, macKey: Uint8Array, paths: string[], sizes: number[], hashUpTo: number): Promise<{ buffer: Buffer; outcomes: number[] }>;
  /** Opens and checks each blob of a span (ids: 32 bytes each; layout: offset, length each); answers the failures. */
  verifySpan(encKey: Uint8Array, macKey: Uint8Array, span: Uint8Array, ids: Uint8Array, layout: Uint32Array): Promise<[number, string][]>;
  /**
   * Opens and checks each blob of a span and writes it to its targets (pack-tasks.ts
   * restorePack): targetCounts per blob, then per target its path and five specs (offset,
   * kind: 1 new one-chunk file, 2 part of a created file, 0 part of an existing one; mode, mtimeMs, size). Answers per target status (NATIVE_TARGET),
   * written, size and mtimeMs; per blob the reason it is damaged or null; and the write
   * that failed, which stopped the span.
   */
  restoreSpan(
    encKey: Uint8Array,
    macKey: Uint8Array,
    span: Uint8Array,
    ids: Uint8Array,
    layout: Uint32Array,
    targetCounts: Uint32Array,
    paths: string[],
    specs: Float64Array,
  ): Promise<{ targets: Float64Array; reasons: (string | null)[]; fatal?: { target: number; code: string; message: string } }>;
  /**
   * A directory's entries with their lstat (eight numbers each: kind 0 file, 1 dir, 2
   * symlink, 3 other; mode, mtimeMs, ctimeMs, inode, uid, gid, size) and symlink targets
   * by position, in the file system's order; rejects with Node's error code and wording.
   */
  listDirectory(path: string): Promise<{ names: string[]; numbers: Float64Array; targets: Record<number, string> }>;
}

/** What restoreSpan did with one target. */
export const NATIVE_TARGET = { written: 0, damaged: 1, notReached: 2 } as const;

/** What readFiles did with one file. */
export const NATIVE_READ = { bytes: 0, sealed: 1, again: 2 } as const;

// Jobs running at once. Each running job holds a set of zstd and OpenSSL contexts, and two
// cores gain nothing from more than a few; four also keeps four small-file reads in
// flight. One thread of libuv's pool is always left to file system calls, so a snapshot
// run inside the server (4 threads by default; the CLI asks for 16) never queues the
// server's own reads and writes behind a whole pool of sealing.
const POOL_THREADS = Number(process.env.UV_THREADPOOL_SIZE) || 4;
const AT_ONCE = Math.max(1, Math.min(4, POOL_THREADS - 1));

/** The codec with at most AT_ONCE of its jobs on the thread pool; the rest wait in order. */
function limited(addon: NativeCodec): NativeCodec {
  let running = 0;
  const waiting: (() => void)[] = [];
  const run = <R>(job: () => Promise<R>): Promise<R> => {
    const start = (): Promise<R> => {
      running++;
      let done: Promise<R>;
      try {
        done = job();
      } catch (err) {
        done = Promise.reject(err as Error); // bad arguments
      }
      void done
        .catch(() => {})
        .finally(() => {
          running--;
          waiting.shift()?.();
        });
      return done;
    };
    if (running < AT_ONCE) return start();
    return new Promise<R>((resolve, reject) => waiting.push(() => start().then(resolve, reject)));
  };
  return {
    hash: (...a) => run(() => addon.hash(...a)),
    seal: (...a) => run(() => addon.seal(...a)),
    readFiles: (...a) => run(() => addon.readFiles(...a)),
    verifySpan: (...a) => run(() => addon.verifySpan(...a)),
    restoreSpan: (...a) => run(() => addon.restoreSpan(...a)),
    listDirectory: (...a) => run(() => addon.listDirectory(...a)),
  };
}

let codec: NativeCodec | null | undefined;

/** The native blob codec, or null (not built, or BOGWAN_VAULT_NATIVE=0 turns it off). */
export function nativeCodec(): NativeCodec | null {
  if (codec === undefined) {
    const addon = process.env.BOGWAN_VAULT_NATIVE === '0' ? null : loadAddon<NativeCodec>(BLOB_CODEC);
    codec = addon && limited(addon);
  }
  return codec;
}

/** Which blob codec this process runs, in words for a log line: the native addon or the JavaScript fallback, and why. */
export function blobCodecInUse(): { codec: 'native' | 'javascript'; reason?: string } {
  if (nativeCodec()) return { codec: 'native' };
  if (process.env.BOGWAN_VAULT_NATIVE === '0') return { codec: 'javascript', reason: 'turned off by BOGWAN_VAULT_NATIVE=0' };
  return {
    codec: 'javascript',
    reason: 'the native addon was not built or does not load (see the warning of `npm ci`); backups run on worker threads, slower',
  };
}
