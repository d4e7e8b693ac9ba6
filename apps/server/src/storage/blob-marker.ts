import fs from 'node:fs';
import path from 'node:path';

/**
 * The file that marks a directory as a Bogwan blob directory. Clean-up jobs delete only
 * in marked directories, and `server.path` may point at a directory that is not empty
 * only when it carries this mark.
 */
export const BLOB_MARKER = '.bogwan-blobs';

const MARKER_TEXT = 'This directory holds file contents of a Bogwan server. Do not put other files here.\n';

/** What a directory offered as `server.path` is. */
export type BlobDirectoryState =
  /** Marked: a blob directory of this or another Bogwan server. */
  | 'blob-directory'
  /** Exists and holds nothing. */
  | 'empty'
  /** Does not exist yet. */
  | 'missing'
  /** Holds files of something else, is not a directory, or cannot be read. */
  | 'foreign';

/** True when the directory carries the blob marker. */
export function isBlobDirectory(dir: string): boolean {
  try {
    return fs.statSync(path.join(dir, BLOB_MARKER)).isFile();
  } catch {
    return false;
  }
}

/** Writes the marker (kept as it is when already there). */
export function markBlobDirectory(dir: string): void {
  try {
    fs.writeFileSync(path.join(dir, BLOB_MARKER), MARKER_TEXT, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Reads what a directory is, without changing anything. */
export function blobDirectoryState(dir: string): BlobDirectoryState {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'foreign';
  }
  if (!stat.isDirectory()) return 'foreign';
  if (isBlobDirectory(dir)) return 'blob-directory';
  try {
    return fs.readdirSync(dir).length === 0 ? 'empty' : 'foreign';
  } catch {
    return 'foreign';
  }
}

/** True when a directory above `dir` is a blob directory (its contents are the server's own). */
export function isInsideBlobDirectory(dir: string): boolean {
  for (let parent = path.dirname(dir); parent !== dir; dir = parent, parent = path.dirname(parent)) {
    if (isBlobDirectory(parent)) return true;
  }
  return false;
}
