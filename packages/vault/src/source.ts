import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
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
  /** Directories: the source vouches that nothing below changed since the parent snapshot (see UnchangedDir). */
  unchanged?: UnchangedDir;
}

/**
 * A directory given without its contents: the caller knows (from its own change records)
 * that everything below it is as in the parent snapshot at the same path. The engine then
 * takes the parent's tree for it, reading nothing below; when it cannot (a full run, no
 * parent snapshot, no directory there, its tree not in the index), it lists `contents()`
 * (the directory's descendants, in the order of a source) as if they had followed it.
 */
export interface UnchangedDir {
  /** What lies below, for the run's statistics: files, directories and bytes. */
  files: number;
  dirs: number;
  size: number;
  contents(): AsyncIterable<SourceEntry>;
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

/** A walked entry: a SourceEntry without `open` (walkPaths adds it; a walker thread does not need it). */
export type WalkedEntry = Omit<SourceEntry, 'open'>;

/** Entries handed out per step of a walk at most (a huge directory comes in several steps). */
const WALK_STEP = 512;

/** An lstat'ed path as a walked entry; null for a kind not backed up. */
export function walked(abs: string, rel: string, st: Stats): WalkedEntry | null {
  const type = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : null;
  // Sockets, fifos and devices are not backed up.
  if (type === null) return null;
  const entry: WalkedEntry = {
    path: rel,
    type,
    mode: st.mode & 0o7777,
    mtimeMs: st.mtimeMs,
    size: type === 'file' ? st.size : 0,
    ctimeMs: st.ctimeMs,
    inode: st.ino,
    uid: st.uid,
    gid: st.gid,
  };
  if (type === 'file') entry.file = abs;
  else if (type === 'symlink') entry.target = readlinkSync(abs);
  return entry;
}

// The walk is synchronous (lstat, readdir, readlink) and hands out a directory's entries
// a step at a time: measured here the synchronous calls are faster than the promise forms
// even on a cold cache (the kernel reads inode tables ahead, and each promise costs tens
// of microseconds), and an asynchronous generator per entry and nesting level cost a
// walker thread more in garbage collection than its lstat calls in the kernel.
function* walkSteps(abs: string, rel: string, st: Stats): Generator<WalkedEntry[]> {
  const self = walked(abs, rel, st);
  if (!self) return;
  let step: WalkedEntry[] = [self];
  if (self.type === 'dir') {
    for (const name of readdirSync(abs).sort()) {
      const child = `${abs}/${name}`;
      const childStat = lstatSync(child);
      if (childStat.isDirectory()) {
        if (step.length > 0) yield step;
        step = [];
        yield* walkSteps(child, `${rel}/${name}`, childStat);
        continue;
      }
      const entry = walked(child, `${rel}/${name}`, childStat);
      if (!entry) continue;
      step.push(entry);
      if (step.length >= WALK_STEP) {
        yield step;
        step = [];
      }
    }
  }
  if (step.length > 0) yield step;
}

/**
 * Walks local paths, a step (up to a few hundred entries of one directory) at a time, in
 * the order of walkPaths; each path becomes a top-level entry named after its last component.
 */
export function* walkPathSteps(paths: string[]): Generator<WalkedEntry[]> {
  const seen = new Set<string>();
  for (const p of paths) {
    const abs = path.resolve(p);
    const name = rootName(abs);
    if (seen.has(name)) throw new Error(`two backup paths share the name "${name}"`);
    seen.add(name);
    yield* walkSteps(abs, name, lstatSync(abs));
  }
}

/** A walked entry made a source entry: a file gets `open`, which streams it. */
export function withOpen(entry: WalkedEntry): SourceEntry {
  if (entry.file === undefined) return entry;
  const { file, size } = entry;
  return Object.assign(entry, { open: () => readFileChunks(file, size) });
}

/** The name of a backup path's top-level entry: its last component. */
export function rootName(abs: string): string {
  return path.basename(abs) || 'root';
}

/** Walks local paths; each becomes a top-level entry named after its last component. */
export async function* walkPaths(paths: string[]): AsyncGenerator<SourceEntry> {
  for (const step of walkPathSteps(paths)) {
    for (const entry of step) yield withOpen(entry);
  }
}
