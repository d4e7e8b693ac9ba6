import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Backend, NotFoundError, type StoredFile } from './backend.js';
import { FileSpool, type Spool } from './spool.js';

const TEMP_MARK = '.tmp-';

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** A repository in a local directory. Writes go to a temp file, fsync, then rename. */
export class LocalBackend implements Backend {
  readonly location: string;
  readonly packSize = 16 * 1024 * 1024;

  constructor(private readonly root: string) {
    this.location = path.resolve(root);
  }

  private full(name: string): string {
    return path.join(this.location, ...name.split('/'));
  }

  async get(name: string): Promise<Buffer> {
    try {
      return await fs.readFile(this.full(name));
    } catch (err) {
      if (isMissing(err)) throw new NotFoundError(name);
      throw err;
    }
  }

  async getRange(name: string, offset: number, length: number, into?: Buffer): Promise<Buffer> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.full(name), 'r');
    } catch (err) {
      if (isMissing(err)) throw new NotFoundError(name);
      throw err;
    }
    try {
      const buf = into && into.length >= length ? into : Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buf, done, length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === buf.length ? buf : buf.subarray(0, done);
    } finally {
      await handle.close();
    }
  }

  async put(name: string, data: Buffer): Promise<void> {
    const target = this.full(name);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.publish(temp, name);
  }

  /**
   * A temporary file under `data/`, on the repository's own file system so that its
   * commit is a rename; a killed writer leaves it as a leftover that prune removes.
   */
  async spool(): Promise<Spool> {
    const dir = this.full('data');
    await fs.mkdir(dir, { recursive: true });
    const temp = path.join(dir, `spool${TEMP_MARK}${randomBytes(8).toString('hex')}`);
    return FileSpool.create(temp, (synced, name) => this.publish(synced, name));
  }

  /** Renames a synced temporary file to `name` and syncs the directory. */
  private async publish(temp: string, name: string): Promise<void> {
    const target = this.full(name);
    const dir = path.dirname(target);
    await fs.mkdir(dir, { recursive: true });
    await fs.rename(temp, target);
    // The rename itself must survive a power cut, so sync the directory too.
    const dirHandle = await fs.open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }

  async list(prefix: string): Promise<StoredFile[]> {
    return this.walk(prefix, false);
  }

  async leftovers(prefix: string): Promise<StoredFile[]> {
    return this.walk(prefix, true);
  }

  private async walk(prefix: string, temporary: boolean): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(this.full(rel), { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const entry of entries) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(child);
        else if (entry.isFile() && entry.name.includes(TEMP_MARK) === temporary) {
          const st = await fs.stat(this.full(child));
          out.push({ name: child, size: st.size });
        }
      }
    };
    await walk(prefix.replace(/\/$/, ''));
    return out;
  }

  async delete(name: string): Promise<void> {
    try {
      await fs.unlink(this.full(name));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async stat(name: string): Promise<StoredFile | null> {
    try {
      const st = await fs.stat(this.full(name));
      return { name, size: st.size };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async close(): Promise<void> {}
}
