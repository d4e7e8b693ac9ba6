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
const NOTHING = Buffer.alloc(0);

/** Index of the quote that closes the JSON string opening at `from - 1`, or -1. */
function closingQuote(line: Buffer, from: number): number {
  for (let q = line.indexOf(QUOTE, from); q !== -1; q = line.indexOf(QUOTE, q + 1)) {
    let slashes = 0;
    while (line[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** The whole number written at `at` up to the next comma, or -1. */
function numberAt(line: Buffer, at: number): number {
  let n = 0;
  let i = at;
  for (; i < line.length && line[i] !== COMMA; i++) {
    const digit = line[i]! - 0x30;
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
 * million rows, parsing every line took most of a no-change snapshot's start.
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
    this.line(Buffer.from(JSON.stringify(row)), start, end);
  }

  /** The next line of the catalog (without its newline), which the file holds in bytes `start..end`. */
  line(line: Buffer, start: number, end: number): void {
    if (this.broken) return;
    const quote = line[0] === 0x5b && line[1] === QUOTE ? closingQuote(line, 2) : -1;
    if (quote === -1 || line[quote + 1] !== COMMA || line[quote + 3] !== COMMA) return this.break();
    const encoded = line.subarray(2, quote);
    const slash = encoded.lastIndexOf(SLASH);
    const parent = slash === -1 ? NOTHING : encoded.subarray(0, slash);
    while (this.open.length > 0 && !this.open.at(-1)!.encoded.equals(parent)) this.close(start);
    // A row whose folder is not the one open: the rows are not in walk order.
    if (this.open.length === 0 && parent.length > 0) return this.break();
    const index = this.index++;
    const kind = line[quote + 2];
    if (kind === 0x30 /* 0 */) {
      const size = numberAt(line, quote + 4);
      if (size < 0) return this.break();
      this.files++;
      this.size += size;
      return;
    }
    const row = JSON.parse(line.toString('utf8')) as CatalogRow;
    if (kind !== 0x31 || row.length !== 8) return this.break();
    this.dirs++;
    const dirty = (this.changes.get(row[6]) ?? 0) !== row[7];
    if (dirty) {
      // Everything above a changed folder has changed below.
      for (let j = this.open.length - 1; j >= 0 && !this.open[j]!.dirty; j--) this.open[j]!.dirty = true;
    }
    this.open.push({ path: row[0], encoded: Buffer.from(encoded), id: row[6], index, after: end, dirty, files: this.files, dirs: this.dirs, size: this.size });
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
