import { randomUUID } from 'node:crypto';
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

/**
 * The file that names the installation a server directory belongs to and the directory
 * itself (a random id made when the file is created). Every process of an installation
 * must see the same file in `server.path`: the directory id is also recorded in the
 * database, so a process whose `server.path` is another directory (not shared, or another
 * installation's) notices at start.
 */
export const IDENTITY_FILE = '.bogwan-installation';

/** What the identity file says. */
export interface DirectoryIdentity {
  installation: string;
  directory: string;
}

/** The identity file's contents, or null when there is none; a file that is not one throws. */
export function readIdentity(dir: string): DirectoryIdentity | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, IDENTITY_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const value = JSON.parse(text) as Partial<DirectoryIdentity>;
  if (typeof value.installation !== 'string' || typeof value.directory !== 'string')
    throw new Error(`${path.join(dir, IDENTITY_FILE)} is not a Bogwan identity file`);
  return { installation: value.installation, directory: value.directory };
}

/**
 * Gives the directory an identity file for `installation` with a new directory id, unless
 * it has one: created with O_EXCL after its contents are fsynced under a temporary name
 * (a link, which fails when the name exists), so of two processes doing this at once on a
 * shared directory one creates it and both answer its contents.
 */
export function claimIdentity(dir: string, installation: string): DirectoryIdentity {
  const identity: DirectoryIdentity = { installation, directory: randomUUID() };
  const temp = path.join(dir, `${IDENTITY_FILE}.${identity.directory}`);
  fs.writeFileSync(temp, `${JSON.stringify(identity)}\n`, { flag: 'wx' });
  try {
    const handle = fs.openSync(temp, 'r');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.linkSync(temp, path.join(dir, IDENTITY_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return readIdentity(dir)!;
}
