import fs from 'node:fs/promises';

/**
 * A file written piece by piece whose name is known only at the end (a pack is named by
 * the hash of its bytes). The bytes go to a local temporary file as they come, so a pack
 * is never whole in memory; `commit` then stores them under their name atomically.
 */
export interface Spool {
  /** Writes `pieces` back to back at `position` (writes may overlap in time, not in range). */
  write(pieces: Buffer[], position: number): Promise<void>;
  /** Stores the bytes written under `name` (readers see all or nothing) and frees the spool. */
  commit(name: string): Promise<void>;
  /** Drops the bytes written. */
  discard(): Promise<void>;
}

/** How a backend finishes a spooled file: gets its synced, closed temp path and the target name. */
export type SpoolCommitter = (tempPath: string, name: string) => Promise<void>;

/** A spool on a local temporary file; the backend says how a finished file is stored. */
export class FileSpool implements Spool {
  private constructor(
    private readonly path: string,
    private readonly handle: fs.FileHandle,
    private readonly store: SpoolCommitter,
  ) {}

  static async create(path: string, store: SpoolCommitter): Promise<FileSpool> {
    return new FileSpool(path, await fs.open(path, 'wx'), store);
  }

  async write(pieces: Buffer[], position: number): Promise<void> {
    let at = position;
    let rest = pieces;
    while (rest.length > 0) {
      const { bytesWritten } = await this.handle.writev(rest, at);
      at += bytesWritten;
      rest = remaining(rest, bytesWritten);
    }
  }

  async commit(name: string): Promise<void> {
    try {
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    try {
      await this.store(this.path, name);
    } catch (err) {
      await fs.rm(this.path, { force: true });
      throw err;
    }
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await fs.rm(this.path, { force: true });
  }
}

/** The pieces left after the first `written` bytes (a short writev). */
function remaining(pieces: Buffer[], written: number): Buffer[] {
  let skip = written;
  const out: Buffer[] = [];
  for (const piece of pieces) {
    if (skip >= piece.length) {
      skip -= piece.length;
      continue;
    }
    out.push(skip > 0 ? piece.subarray(skip) : piece);
    skip = 0;
  }
  return out;
}
