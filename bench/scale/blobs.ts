// The files' contents as real blob files in the layout of the local blob store
// (`aa/bb/<sha256>`), written once per scale and shared by both databases' data directories.
import fs from 'node:fs';
import path from 'node:path';
import { blobKeyOf } from '../../apps/server/src/storage/blob-store.js';
import { fileAt, fileCounts } from './installation.js';

/**
 * Writes the blob of every file of an installation of `files` live files into `dir`, unless
 * an earlier run wrote them there; answers how many were written. A file's content depends
 * on its index alone, so the blobs of a larger installation hold those of every smaller one.
 */
export function writeBlobs(dir: string, files: number): number {
  const { total } = fileCounts(files);
  const done = path.join(dir, '.bench-blobs-written');
  if (fs.existsSync(done) && Number(fs.readFileSync(done, 'utf8')) >= total) return 0;
  const made = new Set<string>();
  for (let i = 0; i < total; i += 1) {
    const { hash, body } = fileAt(i, files);
    const file = path.join(dir, blobKeyOf(hash));
    const parent = path.dirname(file);
    if (!made.has(parent)) {
      fs.mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    fs.writeFileSync(file, body);
  }
  fs.writeFileSync(done, String(total));
  return total;
}

/** Writes the list of the blob files of an installation of `files` live files (for restic's `--files-from`); answers its path. */
export function blobList(dir: string, files: number, listFile: string): string {
  const { total } = fileCounts(files);
  const out = fs.openSync(listFile, 'w');
  for (let i = 0; i < total; i += 1) fs.writeSync(out, `${path.join(dir, blobKeyOf(fileAt(i, files).hash))}\n`);
  fs.closeSync(out);
  return listFile;
}

/**
 * Points a data directory's blob directory at the shared one. The server made its own at
 * first start and wrote its installation's marks there (marker, identity file): they go
 * along, so the shared directory is this installation's until the next one takes it.
 */
export function linkBlobs(dataDir: string, shared: string): void {
  const own = path.join(dataDir, 'blobs');
  fs.mkdirSync(shared, { recursive: true });
  for (const entry of fs.readdirSync(own, { withFileTypes: true })) {
    if (entry.isFile()) fs.copyFileSync(path.join(own, entry.name), path.join(shared, entry.name));
  }
  fs.rmSync(own, { recursive: true, force: true });
  fs.symlinkSync(shared, own);
}
