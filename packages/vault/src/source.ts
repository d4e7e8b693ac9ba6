import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * One entry handed to a backup. Entries come in pre-order: a directory before its
 * contents, and the contents of a directory together.
 */
export interface SourceEntry {
  /** Relative path with "/" separators, e.g. "photos/2024/a.jpg". */
  path: string;
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  mtimeMs: number;
  size: number;
  ctimeMs?: number;
  inode?: number;
  uid?: number;
  gid?: number;
  /** A content hash the caller already knows; unchanged when it and the size match. */
  contentHash?: string;
  /** Symlink target. */
  target?: string;
  /** Streams the file's bytes (files only). */
  open?(): AsyncIterable<Uint8Array>;
  /** The absolute path of the local file that `open` streams, when there is one: the engine may read it on a thread of its own. */
  file?: string;
}

/** What a backup reads: any async iterable of entries. */
export type BackupSource = AsyncIterable<SourceEntry>;

export const READ_SIZE = 4 * 1024 * 1024;

/** Streams a file in large reads; the buffers are fresh, so callers may keep them. */
// Opened without blocking: a file replaced by a named pipe after the walk would otherwise
// wait for a writer forever. Whatever is not a regular file any more is refused.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

function notRegular(file: string): Error {
  return Object.assign(new Error(`${file} is no longer a regular file`), { code: 'ENOTREG' });
}

/** Opens a file the walk saw as a regular file, refusing anything else it has become. */
export async function openRegularFile(file: string): Promise<fs.FileHandle> {
  const handle = await fs.open(file, OPEN_FLAGS);
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw notRegular(file);
  }
  return handle;
}

/** openRegularFile for synchronous callers (reader threads); answers the descriptor. */
export function openRegularFileSync(file: string): number {
  const fd = openSync(file, OPEN_FLAGS);
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw notRegular(file);
  }
  return fd;
}

export async function* readFileChunks(file: string, size: number): AsyncGenerator<Uint8Array> {
  const handle = await openRegularFile(file);
  try {
    let position = 0;
    for (;;) {
      // Read small files in one go, big ones in fixed slices.
      const want = Math.max(1, Math.min(READ_SIZE, size - position + 1));
      const buf = Buffer.allocUnsafeSlow(want);
      const { bytesRead } = await handle.read(buf, 0, want, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Reads an open file into `window` behind the bytes not cut yet: after each read `cut(end,
 * final)` answers how many bytes from the window's start it has used, and the rest moves
 * to the front. `cut` must leave less than `window.length - READ_SIZE` bytes (a chunker
 * whose largest chunk is that size does). `counted` hears of every read. The file is read
 * to its end, whatever its size when walked; the caller closes it.
 */
export async function readInWindow(
  handle: fs.FileHandle,
  window: Buffer,
  cut: (end: number, final: boolean) => Promise<number>,
  counted: (bytes: number) => void,
): Promise<void> {
  let have = 0;
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(window, have, Math.min(READ_SIZE, window.length - have), position);
    if (bytesRead === 0) {
      if (have > 0) await cut(have, true);
      return;
    }
    position += bytesRead;
    have += bytesRead;
    counted(bytesRead);
    const used = await cut(have, false);
    if (used > 0) {
      window.copy(window, 0, used, have);
      have -= used;
    }
  }
}

// lstat is called synchronously: measured here it is faster than the promise form
// even on a cold cache (the kernel reads inode tables ahead, and each promise costs
// tens of microseconds of main-thread time), and a walk yields after every entry.
async function* walk(abs: string, rel: string, st: Stats = lstatSync(abs)): AsyncGenerator<SourceEntry> {
  const base = { path: rel, mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, inode: st.ino, uid: st.uid, gid: st.gid };
  if (st.isSymbolicLink()) {
    yield { ...base, type: 'symlink', size: 0, target: await fs.readlink(abs) };
  } else if (st.isFile()) {
    const size = st.size;
    yield { ...base, type: 'file', size, file: abs, open: () => readFileChunks(abs, size) };
  } else if (st.isDirectory()) {
    yield { ...base, type: 'dir', size: 0 };
    const names = (await fs.readdir(abs)).sort();
    for (const name of names) {
      const child = `${abs}/${name}`;
      const childStat = lstatSync(child);
      if (childStat.isDirectory() || childStat.isSymbolicLink()) yield* walk(child, `${rel}/${name}`, childStat);
      else if (childStat.isFile()) {
        const size = childStat.size;
        yield {
          path: `${rel}/${name}`,
          type: 'file',
          mode: childStat.mode & 0o7777,
          mtimeMs: childStat.mtimeMs,
          ctimeMs: childStat.ctimeMs,
          inode: childStat.ino,
          uid: childStat.uid,
          gid: childStat.gid,
          size,
          file: child,
          open: () => readFileChunks(child, size),
        };
      }
    }
  }
  // Sockets, fifos and devices are not backed up.
}

/** The name of a backup path's top-level entry: its last component. */
export function rootName(abs: string): string {
  return path.basename(abs) || 'root';
}

/** Walks local paths; each becomes a top-level entry named after its last component. */
export async function* walkPaths(paths: string[]): AsyncGenerator<SourceEntry> {
  const seen = new Set<string>();
  for (const p of paths) {
    const abs = path.resolve(p);
    const name = rootName(abs);
    if (seen.has(name)) throw new Error(`two backup paths share the name "${name}"`);
    seen.add(name);
    yield* walk(abs, name);
  }
}
