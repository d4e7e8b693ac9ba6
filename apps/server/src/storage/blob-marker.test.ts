import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BLOB_MARKER, blobDirectoryState, isInsideBlobDirectory } from './blob-marker.js';
import { LocalBlobStore } from './local-blob-store.js';

const made: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-marker-'));
  made.push(dir);
  return dir;
};
const DAY_OLD = new Date(Date.now() - 2 * 24 * 3600_000);

/** Puts a two-day-old file into `<dir>/tmp`. */
function oldTempFile(dir: string): string {
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const file = path.join(dir, 'tmp', 'left-over');
  fs.writeFileSync(file, 'x');
  fs.utimesSync(file, DAY_OLD, DAY_OLD);
  return file;
}

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('blob directory marker', () => {
  it('tells a missing, an empty, a marked and a foreign directory apart', () => {
    const dir = tempDir();
    expect(blobDirectoryState(path.join(dir, 'nope'))).toBe('missing');
    expect(blobDirectoryState(dir)).toBe('empty');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    expect(blobDirectoryState(dir)).toBe('foreign');
    expect(blobDirectoryState(path.join(dir, 'notes.txt'))).toBe('foreign');
    fs.writeFileSync(path.join(dir, BLOB_MARKER), '');
    expect(blobDirectoryState(dir)).toBe('blob-directory');
    expect(isInsideBlobDirectory(path.join(dir, 'tmp'))).toBe(true);
    expect(isInsideBlobDirectory(dir)).toBe(false);
  });

  it('marks a directory first used as a store, and sweeps temporary files only there', async () => {
    const fresh = path.join(tempDir(), 'blobs');
    const ours = new LocalBlobStore(fresh);
    expect(ours.marked).toBe(true);
    const ourLeftOver = oldTempFile(fresh);
    expect(await ours.sweepTemp(new Date(Date.now() - 24 * 3600_000))).toBe(1);
    expect(fs.existsSync(ourLeftOver)).toBe(false);
  });

  it('never marks nor sweeps a directory that held other things before', async () => {
    const foreign = tempDir();
    const theirs = oldTempFile(foreign);
    const store = new LocalBlobStore(foreign);
    expect(store.marked).toBe(false);
    expect(fs.existsSync(path.join(foreign, BLOB_MARKER))).toBe(false);
    expect(await store.sweepTemp(new Date(Date.now() - 24 * 3600_000))).toBe(0);
    expect(fs.readFileSync(theirs, 'utf8')).toBe('x');
  });
});
