import type { CatalogRow } from './catalog.js';

// Which folders of the live store a snapshot may take from its parent without walking
// them. Each folder row of the parent's catalog carries the folder's id and the change
// count it had when that snapshot read the counts (before walking). A trigger bumps a
// folder's count with every change to its direct children (migration tree_changes), so a
// folder whose count has not moved since has the very children it had then; when the same
// holds for every folder below it, and the folder is the same node at the same path, all
// its contents are as the parent snapshot stored them.

/** A folder taken from the parent: where its rows are in the parent's catalog and what lies below. */
export interface UnchangedFolder {
  /** Its own row and the rows below it: rows `from..to` (exclusive) of the parent's catalog. */
  from: number;
  to: number;
  /** The byte range of the rows below its own row in the parent's catalog file. */
  start: number;
  end: number;
  files: number;
  dirs: number;
  size: number;
}

interface Open {
  path: string;
  /** Its path as the catalog line writes it (JSON-escaped, without the quotes). */
  encoded: Buffer;
  id: string;
  index: number;
  /** Where the rows below it begin (the end of its own row). */
  after: number;
  dirty: boolean;
  /** The running totals when it opened (itself counted). */
  files: number;
  dirs: number;
  size: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const COMMA = 0x2c;

/** Whether `bytes[from..to)` holds exactly the bytes of `encoded` (no view made). */
function sameBytes(encoded: Buffer, bytes: Buffer, from: number, to: number): boolean {
  return encoded.length === to - from && bytes.compare(encoded, 0, encoded.length, from, to) === 0;
}

/** Index of the quote that closes the JSON string opening at `from - 1`, before `to`; or -1. */
function closingQuote(bytes: Buffer, from: number, to: number): number {
  for (let q = bytes.indexOf(QUOTE, from); q !== -1 && q < to; q = bytes.indexOf(QUOTE, q + 1)) {
    let slashes = 0;
    while (bytes[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** The whole number written at `at` up to the next comma (before `to`), or -1. */
function numberAt(bytes: Buffer, at: number, to: number): number {
  let n = 0;
  let i = at;
  for (; i < to && bytes[i] !== COMMA; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return i === at ? -1 : n;
}

/**
 * Reads the parent's catalog lines one by one, in file order, against the counts now; keeps
 * only the unchanged folders' ranges and totals (one entry a folder, nothing a file). A
 * file's line is read as bytes (its path's folder compared in its JSON form, which escapes
 * each character on its own, so a folder's encoded path prefixes its children's): at a
 * million rows, parsing every line took most of a no-change snapshot's start. A line is
 * given as a range of the piece it was read in, so that a file's line costs no object: at a
 * million rows, a view and a record per line were ~300 MB of garbage, enough of it promoted
 * to hold 1 MiB pieces until a full collection.
 */
export class FolderScan {
  private readonly open: Open[] = [];
  private readonly clean = new Map<string, UnchangedFolder & { id: string }>();
  private index = 0;
  private files = 0;
  private dirs = 0;
  private size = 0;
  private broken = false;

  constructor(private readonly changes: Map<string, number>) {}

  /** The next row as a value (tests, and catalogs rewritten from version 1). */
  row(row: CatalogRow, start: number, end: number): void {
    const bytes = Buffer.from(JSON.stringify(row));
    this.line(bytes, 0, bytes.length, start, end);
  }

  /**
   * The next line of the catalog: `bytes[from..to)` (without its newline), which the file
   * holds in bytes `start..end`. Nothing of `bytes` is kept.
   */
  line(bytes: Buffer, from: number, to: number, start: number, end: number): void {
    if (this.broken) return;
    const quote = bytes[from] === 0x5b && bytes[from + 1] === QUOTE ? closingQuote(bytes, from + 2, to) : -1;
    if (quote === -1 || quote + 3 >= to || bytes[quote + 1] !== COMMA || bytes[quote + 3] !== COMMA) return this.break();
    // The path as the line encodes it is bytes[from + 2..quote); its folder's, bytes[from + 2..parentEnd).
    const slash = bytes.lastIndexOf(SLASH, quote - 1);
    const parentEnd = slash < from + 2 ? from + 2 : slash;
    while (this.open.length > 0 && !sameBytes(this.open.at(-1)!.encoded, bytes, from + 2, parentEnd)) this.close(start);
    // A row whose folder is not the one open: the rows are not in walk order.
    if (this.open.length === 0 && parentEnd > from + 2) return this.break();
    const index = this.index++;
    const kind = bytes[quote + 2];
    if (kind === 0x30 /* 0 */) {
      const size = numberAt(bytes, quote + 4, to);
      if (size < 0) return this.break();
      this.files++;
      this.size += size;
      return;
    }
    const row = JSON.parse(bytes.toString('utf8', from, to)) as CatalogRow;
    if (kind !== 0x31 || row.length !== 8) return this.break();
    this.dirs++;
    const dirty = (this.changes.get(row[6]) ?? 0) !== row[7];
    if (dirty) {
      // Everything above a changed folder has changed below.
      for (let j = this.open.length - 1; j >= 0 && !this.open[j]!.dirty; j--) this.open[j]!.dirty = true;
    }
    const encoded = Buffer.from(bytes.subarray(from + 2, quote));
    this.open.push({ path: row[0], encoded, id: row[6], index, after: end, dirty, files: this.files, dirs: this.dirs, size: this.size });
  }

  private break(): void {
    this.broken = true;
  }

  private close(end: number): void {
    const folder = this.open.pop()!;
    if (folder.dirty) return;
    this.clean.set(folder.path, {
      id: folder.id,
      from: folder.index,
      to: this.index,
      start: folder.after,
      end,
      files: this.files - folder.files,
      dirs: this.dirs - folder.dirs,
      size: this.size - folder.size,
    });
  }

  /** After the last row, which ends at byte `end`; null when the catalog cannot tell (folders without counts, rows not in walk order). */
  finish(end: number): UnchangedFolders | null {
    if (this.broken) return null;
    while (this.open.length > 0) this.close(end);
    return new UnchangedFolders(this.clean);
  }
}

/** The folders of the parent snapshot that nothing has changed in since, by path. */
export class UnchangedFolders {
  constructor(private readonly clean: Map<string, UnchangedFolder & { id: string }>) {}

  /** Scans rows in memory as if each were a line of its JSON (for tests and small catalogs). */
  static of(rows: CatalogRow[], changes: Map<string, number>): UnchangedFolders | null {
    const scan = new FolderScan(changes);
    let at = 0;
    for (const row of rows) {
      const length = Buffer.byteLength(JSON.stringify(row)) + 1;
      scan.row(row, at, at + length);
      at += length;
    }
    return scan.finish(at);
  }

  /** The folder at `path` when it is the node `id` there and nothing at or below it changed. */
  find(path: string, id: string): UnchangedFolder | undefined {
    const found = this.clean.get(path);
    if (!found || found.id !== id) return undefined;
    const { from, to, start, end, files, dirs, size } = found;
    return { from, to, start, end, files, dirs, size };
  }
}
