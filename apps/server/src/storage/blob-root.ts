import fs from 'node:fs';
import path from 'node:path';
import { markBlobDirectory } from './blob-marker.js';

/**
 * The local blob directory under the data directory. The blob store proper (disk and
 * S3 drivers) builds on it; until then the server makes sure it exists and is writable.
 */
export function blobRoot(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}

/** Creates the default blob directory and marks it (it is the server's own by definition). */
export function ensureBlobRoot(dir: string): void {
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  markBlobDirectory(dir);
}

/** True when the directory can be written to (a probe file is created and removed). */
export async function probeBlobRoot(dir: string): Promise<boolean> {
  const probe = path.join(dir, 'tmp', `.health-${process.pid}`);
  try {
    await fs.promises.writeFile(probe, 'ok');
    await fs.promises.rm(probe, { force: true });
    return true;
  } catch {
    return false;
  }
}
