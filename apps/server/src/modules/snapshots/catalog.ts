import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs/promises';
import { GarbageMeter } from '@bogwan/vault';
import type { NodeRow } from '../files/ports.js';
import { FolderScan, type UnchangedFolder, type UnchangedFolders } from './unchanged-folders.js';

// The catalog: a file each snapshot carries at its top (SNAPSHOT_CATALOG_NAME) with
// what the backup engine's own tree does not hold: owners, content hashes (SHA-256, as
// the store keys blobs) and each root folder's backend. Compact rows keep it small.
//
// Version 2 (written now) is lines of JSON, so that it is written and read in pieces:
//   {"version":2,"createdAt":"…"}            the header
//   ["Team",1,0,"…",0,"",id,changes]         one row a line, in walk order
//   {"roots":[…],"owners":[…]}               the trailer: known only at the end of the walk
// Version 1 (written before) is one JSON object (CatalogFile) with the rows inside; it is
// still read, for restores and as a parent.

/**
 * One row: [path, folder 0/1, size, mtime ISO, owner index or -1, SHA-256 or ''], and for
 * a folder also [node id, its change count when walked] (see unchanged-folders.ts).
 */
export type CatalogRow = [string, 0 | 1, number, string, number, string] | [string, 0 | 1, number, string, number, string, string, number];

type Roots = { name: string; backend: string }[];
/** Owners by index, with their email so a restore elsewhere can find them again. */
type Owners = { id: string; email: string }[];

/** A version 1 catalog. */
export interface CatalogFile {
  version: 1;
  createdAt: string;
  roots: Roots;
  owners: Owners;
  rows: CatalogRow[];
}

interface Trailer {
  roots: Roots;
  owners: Owners;
}

/** A finished catalog as the engine gets it: its file, size, SHA-256 and time (the parent's, when it is the parent's catalog). */
export interface BuiltCatalog {
  file: string;
  size: number;
  digest: string;
  createdAt: string;
}

/** Bytes of a catalog file are read in pieces of this size. */
const PIECE = 1 << 20;
/**
 * Rows are written once this many bytes of them have gathered. Kept small: the row strings
 * waiting here outlive young-generation collections when there are thousands of them, and a
 * no-change run at 1M files copies a million rows (measured: ~100 MiB of such garbage waiting for
 * a full collection with 1 MiB).
 */
const FLUSH_AT = 64 * 1024;

/** A file's line (without its newline) and its byte range in the file (newline included). */
export interface Line {
  line: Buffer;
  start: number;
  end: number;
}

/**
 * Splits a file into lines as it is read, a piece's lines at a time (an await a line
 * costs more than the line's work at a million lines). `bytes` are the lines' bytes in the
 * file from `at`, newlines included.
 */
export async function* lineBatches(file: string, start = 0, end = Infinity): AsyncGenerator<{ lines: Line[]; bytes: Buffer; at: number }> {
  const handle = await fs.open(file, 'r');
  try {
    let rest: Buffer = Buffer.alloc(0);
    let restAt = start;
    let position = start;
    while (position < end) {
      const buffer = Buffer.allocUnsafe(Math.min(PIECE, end - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = rest.length > 0 ? Buffer.concat([rest, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
      const lines: Line[] = [];
      let at = 0;
      for (let nl = data.indexOf(10, at); nl !== -1; nl = data.indexOf(10, at)) {
        lines.push({ line: data.subarray(at, nl), start: restAt + at, end: restAt + nl + 1 });
        at = nl + 1;
      }
      if (lines.length > 0) yield { lines, bytes: data.subarray(0, at), at: restAt };
      // Copied: a line kept over from a large piece would otherwise hold the whole piece.
      rest = Buffer.from(data.subarray(at));
      restAt += at;
    }
    if (rest.length > 0) yield { lines: [{ line: rest, start: restAt, end: restAt + rest.length }], bytes: rest, at: restAt };
  } finally {
    await handle.close();
  }
}

/**
 * A file's bytes in pieces that end where a line ends (the last may end without a newline),
 * each with where it starts in the file. Every piece is read into one buffer, grown only for
 * a line longer than it: the caller is done with a piece before it asks for the next.
 */
export async function* wholeLinePieces(file: string): AsyncGenerator<{ bytes: Buffer; at: number }> {
  const handle = await fs.open(file, 'r');
  try {
    let buffer = Buffer.allocUnsafeSlow(PIECE);
    let kept = 0;
    let at = 0;
    for (;;) {
      if (kept === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafeSlow(buffer.length)]);
      const { bytesRead } = await handle.read(buffer, kept, buffer.length - kept, at + kept);
      if (bytesRead === 0) {
        if (kept > 0) yield { bytes: buffer.subarray(0, kept), at };
        return;
      }
      const filled = kept + bytesRead;
      const cut = buffer.lastIndexOf(10, filled - 1) + 1;
      if (cut === 0) {
        kept = filled;
        continue;
      }
      yield { bytes: buffer.subarray(0, cut), at };
      buffer.copyWithin(0, cut, filled);
      kept = filled - cut;
      at += cut;
    }
  } finally {
    await handle.close();
  }
}

/** A file's lines one by one (see lineBatches). */
export async function* linesOf(file: string, start = 0, end = Infinity): AsyncGenerator<Line> {
  for await (const { lines } of lineBatches(file, start, end)) yield* lines;
}

/** The first bytes of a file, enough to tell a version 2 header from a version 1 object. */
export async function versionOf(file: string): Promise<number> {
  for await (const { line } of linesOf(file, 0, 64 * 1024)) {
    const text = line.toString('utf8');
    if (text.startsWith('{"version":2,')) return 2;
    return 1;
  }
  return 1;
}

/** Writes a file in large pieces while hashing what is written. */
class HashedWriter {
  private pending: string[] = [];
  private pendingBytes = 0;
  size = 0;

  private constructor(
    private readonly handle: fs.FileHandle,
    readonly file: Hash,
    /** Everything after the header: what the catalog says, its time aside. */
    readonly content: Hash,
  ) {}

  static async create(path: string): Promise<HashedWriter> {
    return new HashedWriter(await fs.open(path, 'w'), createHash('sha256'), createHash('sha256'));
  }

  async header(line: string): Promise<void> {
    const bytes = Buffer.from(`${line}\n`);
    this.file.update(bytes);
    await this.handle.write(bytes);
    this.size += bytes.length;
  }

  async line(line: string): Promise<void> {
    this.pending.push(line, '\n');
    this.pendingBytes += line.length + 1;
    if (this.pendingBytes >= FLUSH_AT) await this.flush();
  }

  /** Bytes that are already whole lines, after those waiting. */
  async raw(bytes: Buffer): Promise<void> {
    await this.flush();
    this.file.update(bytes);
    this.content.update(bytes);
    this.size += bytes.length;
    await this.handle.write(bytes);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
    this.file.update(bytes);
    this.content.update(bytes);
    this.size += bytes.length;
    await this.handle.write(bytes);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => {});
  }
}

/**
 * A meter for copying a parent catalog out of the repository (157 MB at a million files): its
 * pieces are garbage at once, but those that outlive two young-generation collections wait for
 * a full one, which a server otherwise idle for the run rarely makes (measured: the buffers
 * waiting rose by ~60 MiB during a no-change run at 1M files). The scan after it reads into
 * one buffer and makes no garbage per line (wholeLinePieces, FolderScan.line).
 */
const copyGarbage = () => new GarbageMeter(32 * 1024 * 1024, { fullEvery: 2 });

/**
 * The parent snapshot's catalog, copied to a file of its own and read through once: its
 * owners and roots, the SHA-256 of its bytes and of its content, and which of its folders
 * are unchanged since (only folder ranges are kept in memory).
 */
export class ParentCatalog {
  private constructor(
    readonly file: string,
    readonly size: number,
    readonly digest: string,
    /** Null for a version 1 catalog: the new catalog is never the same bytes. */
    readonly contentDigest: string | null,
    readonly createdAt: string,
    readonly owners: Owners,
    readonly unchanged: UnchangedFolders | null,
  ) {}

  /**
   * Writes `pieces` (the stored catalog's bytes) to `file` and reads it. A version 1 catalog
   * is read whole (as it was written) and rewritten in version 2 at `file`.
   */
  static async read(pieces: AsyncIterable<Uint8Array>, file: string, changes: Map<string, number>): Promise<ParentCatalog> {
    const digest = createHash('sha256');
    const out = await fs.open(file, 'w');
    const garbage = copyGarbage();
    let size = 0;
    try {
      for await (const piece of pieces) {
        digest.update(piece);
        size += piece.length;
        await out.write(piece);
        garbage.note(piece.length);
      }
    } finally {
      await out.close();
    }
    const fileDigest = digest.digest('hex');
    if ((await versionOf(file)) === 1) {
      const old = parseCatalogFile(await fs.readFile(file));
      if (old.version !== 1 || !Array.isArray(old.rows)) throw new Error('unknown catalog format');
      const writer = await HashedWriter.create(file);
      try {
        await writer.header(JSON.stringify({ version: 2, createdAt: old.createdAt }));
        for (const row of old.rows) await writer.line(JSON.stringify(row));
        await writer.line(JSON.stringify({ roots: old.roots, owners: old.owners }));
      } finally {
        await writer.close();
      }
      return ParentCatalog.scan(file, size, fileDigest, null, changes);
    }
    return ParentCatalog.scan(file, size, fileDigest, undefined, changes);
  }

  /** Reads a version 2 catalog file through: content digest (unless given), time, owners, unchanged folders. */
  private static async scan(file: string, size: number, digest: string, contentDigest: string | null | undefined, changes: Map<string, number>) {
    const content = createHash('sha256');
    const folders = new FolderScan(changes);
    let createdAt = '';
    let trailer: Trailer | null = null;
    let end = 0;
    let first = true;
    for await (const { bytes, at } of wholeLinePieces(file)) {
      let hashFrom = 0;
      for (let from = 0; from < bytes.length;) {
        const newline = bytes.indexOf(10, from);
        const to = newline === -1 ? bytes.length : newline;
        const next = newline === -1 ? bytes.length : newline + 1;
        if (first) {
          first = false;
          createdAt = (JSON.parse(bytes.toString('utf8', from, to)) as { createdAt: string }).createdAt;
          hashFrom = next;
        } else if (bytes[from] === 0x5b /* [ */) folders.line(bytes, from, to, at + from, at + next);
        else {
          trailer = JSON.parse(bytes.toString('utf8', from, to)) as Trailer;
          end = at + from;
        }
        from = next;
      }
      // The content: every byte after the header.
      content.update(bytes.subarray(hashFrom));
    }
    if (!trailer) throw new Error('catalog without its trailer');
    return new ParentCatalog(
      file,
      size,
      digest,
      contentDigest === undefined ? content.digest('hex') : contentDigest,
      createdAt,
      trailer.owners,
      folders.finish(end),
    );
  }

  /** The bytes of an unchanged folder's rows below its own row, as written, in pieces (read into `into` when given; see catalogBytes). */
  bytesBelow(folder: UnchangedFolder, into?: Buffer): AsyncGenerator<Buffer> {
    return catalogBytes(this.file, folder.start, folder.end, into);
  }
}

/**
 * Writes the catalog to `file` while the live store is walked. `changes` are the folders'
 * change counts read before the walk, kept with each folder; rows of an unchanged folder
 * come from the parent snapshot's catalog (`copy`). Only the owners and roots are kept in
 * memory; their emails are looked up at the end.
 */
export class CatalogBuilder {
  private readonly roots: Roots = [];
  private readonly ownerIndex = new Map<string, number>();
  private readonly createdAt = new Date().toISOString();
  private copyBuffer: Buffer | undefined;

  private constructor(
    private readonly out: HashedWriter,
    private readonly path: string,
    private readonly changes: Map<string, number>,
    private readonly previous: ParentCatalog | null,
  ) {}

  static async create(file: string, changes: Map<string, number> = new Map(), previous: ParentCatalog | null = null): Promise<CatalogBuilder> {
    const builder = new CatalogBuilder(await HashedWriter.create(file), file, changes, previous);
    // The parent's owners keep their numbers, so that rows taken from it are copied as bytes.
    for (const owner of previous?.owners ?? []) builder.ownerOf(owner.id);
    await builder.out.header(JSON.stringify({ version: 2, createdAt: builder.createdAt }));
    return builder;
  }

  async addRoot(root: NodeRow): Promise<void> {
    this.roots.push({ name: root.name, backend: root.backend });
    await this.add(root.name, root);
  }

  async add(path: string, node: NodeRow): Promise<void> {
    const owner = this.ownerOf(node.owner_id);
    const row: CatalogRow =
      node.folder === 1
        ? [path, 1, node.size, node.mtime, owner, node.content_hash ?? '', node.id, this.changes.get(node.id) ?? 0]
        : [path, 0, node.size, node.mtime, owner, node.content_hash ?? ''];
    await this.out.line(JSON.stringify(row));
  }

  /** Adds the parent catalog's rows below an unchanged folder, byte for byte (owner numbers are the parent's). */
  async copy(folder: UnchangedFolder): Promise<void> {
    // `raw` has written a piece when it resolves: one buffer serves every piece of every folder.
    this.copyBuffer ??= Buffer.allocUnsafeSlow(PIECE);
    for await (const bytes of this.previous!.bytesBelow(folder, this.copyBuffer)) await this.out.raw(bytes);
  }

  private ownerOf(ownerId: string | null): number {
    if (!ownerId) return -1;
    const owner = this.ownerIndex.get(ownerId) ?? this.ownerIndex.size;
    this.ownerIndex.set(ownerId, owner);
    return owner;
  }

  /**
   * The finished catalog; owner emails are looked up once at the end. When it says exactly
   * what the previous one said (same content digest), the previous file is answered: the
   * snapshot then keeps the stored catalog as it is (same content hash, nothing to store).
   */
  async build(emails: Map<string, string>): Promise<BuiltCatalog> {
    const known = new Map((this.previous?.owners ?? []).map((o) => [o.id, o.email]));
    const owners = [...this.ownerIndex.keys()].map((id) => ({ id, email: emails.get(id) ?? known.get(id) ?? '' }));
    await this.out.line(JSON.stringify({ roots: this.roots, owners }));
    await this.out.close();
    const content = this.out.content.digest('hex');
    const previous = this.previous;
    if (previous && previous.contentDigest === content)
      return { file: previous.file, size: previous.size, digest: previous.digest, createdAt: previous.createdAt };
    return { file: this.path, size: this.out.size, digest: this.out.file.digest('hex'), createdAt: this.createdAt };
  }

  /** Closes the file when the walk stops before `build`. */
  async abandon(): Promise<void> {
    await this.out.abandon();
  }

  ownerIds(): string[] {
    return [...this.ownerIndex.keys()];
  }
}

/**
 * A catalog file's bytes in pieces (bytes `start..end`, or all), for the engine and for rows
 * copied from a parent. With `into`, every piece is read into that buffer: the caller is done
 * with a piece before it asks for the next (no garbage per piece: 157 MB are copied at 1M files).
 */
export async function* catalogBytes(file: string, start = 0, end = Infinity, into?: Buffer): AsyncGenerator<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    for (let at = start; at < end;) {
      const buffer = into ? into.subarray(0, Math.min(into.length, end - at)) : Buffer.allocUnsafe(Math.min(PIECE, end - at));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      if (bytesRead === 0) {
        if (end === Infinity) return;
        throw new Error('catalog file shorter than its scan');
      }
      at += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** A stored version 1 catalog's file, as written (not checked further). */
export function parseCatalogFile(data: Buffer): CatalogFile {
  return JSON.parse(data.toString('utf8')) as CatalogFile;
}
