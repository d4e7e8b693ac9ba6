import type { BlobIndex } from './blob-index.js';

/**
 * The books of a restore, kept in typed columns: a file or a needed blob is a row number,
 * not an object. 50,000 files held as objects (the file, the blob it needs, the place
 * that blob goes, their path strings and arrays) took ~21 MiB of live heap and, with the
 * walk's garbage, ~60 MiB of heap pages; as rows they take a few MiB.
 */

type Column = Float64Array | Int32Array | Uint8Array;

/** `column` with room for `rows` rows (doubling), its contents kept. */
function withRoom<T extends Column>(column: T, rows: number): T {
  if (rows <= column.length) return column;
  const next = new (column.constructor as new (length: number) => T)(Math.max(rows, column.length * 2));
  next.set(column);
  return next;
}

/** The files a restore writes: row `f` is one file. */
export class RestoreFiles {
  private readonly dirPaths: string[] = [];
  private readonly dirNumbers = new Map<string, number>();
  private readonly names: string[] = [];
  private dirOf = new Int32Array(1024);
  private modes = new Int32Array(1024);
  private mtimes = new Float64Array(1024);
  private sizes = new Float64Array(1024);
  private left = new Int32Array(1024);
  private wholeFlags = new Uint8Array(1024);
  /** Why a file could not be restored, by row. */
  private readonly errors = new Map<number, string>();

  /**
   * Adds a file at `rel` (its name last): stored as its directory's number and its
   * name, so the 50,000 paths of a snapshot are not kept as 50,000 joined strings.
   */
  add(rel: string, name: string, mode: number, mtimeMs: number, size: number): number {
    const f = this.names.length;
    const rows = f + 1;
    this.dirOf = withRoom(this.dirOf, rows);
    this.modes = withRoom(this.modes, rows);
    this.mtimes = withRoom(this.mtimes, rows);
    this.sizes = withRoom(this.sizes, rows);
    this.left = withRoom(this.left, rows);
    this.wholeFlags = withRoom(this.wholeFlags, rows);
    const dir = rel.length === name.length ? '' : rel.slice(0, rel.length - name.length - 1);
    this.dirOf[f] = dir === '' ? -1 : this.dirNumber(dir);
    this.names.push(name);
    this.modes[f] = mode;
    this.mtimes[f] = mtimeMs;
    this.sizes[f] = size;
    return f;
  }

  private dirNumber(dir: string): number {
    let n = this.dirNumbers.get(dir);
    if (n === undefined) {
      n = this.dirPaths.length;
      this.dirPaths.push(dir);
      this.dirNumbers.set(dir, n);
    }
    return n;
  }

  /** Snapshot-relative path of file `f`. */
  path(f: number): string {
    const dir = this.dirOf[f]!;
    return dir < 0 ? this.names[f]! : `${this.dirPaths[dir]}/${this.names[f]}`;
  }

  mode(f: number): number {
    return this.modes[f]!;
  }

  mtimeMs(f: number): number {
    return this.mtimes[f]!;
  }

  size(f: number): number {
    return this.sizes[f]!;
  }

  /** A new single-chunk file: created, written and finished in one go when its blob arrives. */
  whole(f: number): boolean {
    return this.wholeFlags[f] === 1;
  }

  markWhole(f: number): void {
    this.wholeFlags[f] = 1;
  }

  /** A file this restore created empty and sized (or will create whole): its zeros may stay holes. */
  holes(f: number): boolean {
    return this.wholeFlags[f] !== 0;
  }

  markCreated(f: number): void {
    this.wholeFlags[f] = 2;
  }

  /** Blobs file `f` still waits for. */
  remaining(f: number): number {
    return this.left[f]!;
  }

  expect(f: number): void {
    this.left[f]!++;
  }

  /** One of file `f`'s blobs has been dealt with; returns how many it still waits for. */
  arrived(f: number): number {
    return --this.left[f]!;
  }

  error(f: number): string | undefined {
    return this.errors.get(f);
  }

  /** Records why file `f` failed; the first reason stays. */
  fail(f: number, reason: string): void {
    if (!this.errors.has(f)) this.errors.set(f, reason);
  }
}

/** Where a needed blob goes: a file's row and the offset in it. */
export interface RestoreTarget {
  file: number;
  offset: number;
}

/**
 * The blobs a restore needs: row `n` is one blob (its index entry) with its first
 * target; the rare further targets (a chunk repeated within or across files) are kept
 * aside.
 */
export class RestoreNeeds {
  private entries = new Int32Array(1024);
  private firstFile = new Int32Array(1024);
  private firstOffset = new Float64Array(1024);
  private readonly moreTargets = new Map<number, RestoreTarget[]>();
  /** Row of each index entry already needed (-1: none), while planning. */
  private rowOfEntry: Int32Array;
  private count = 0;

  constructor(private readonly index: BlobIndex) {
    this.rowOfEntry = new Int32Array(index.size).fill(-1);
  }

  /** File `file` needs index entry `entry` at `offset`. */
  want(entry: number, file: number, offset: number): void {
    const row = this.rowOfEntry[entry]!;
    if (row >= 0) {
      const more = this.moreTargets.get(row);
      if (more) more.push({ file, offset });
      else this.moreTargets.set(row, [{ file, offset }]);
      return;
    }
    const n = this.count++;
    this.entries = withRoom(this.entries, this.count);
    this.firstFile = withRoom(this.firstFile, this.count);
    this.firstOffset = withRoom(this.firstOffset, this.count);
    this.entries[n] = entry;
    this.firstFile[n] = file;
    this.firstOffset[n] = offset;
    this.rowOfEntry[entry] = n;
  }

  entry(n: number): number {
    return this.entries[n]!;
  }

  /** Where blob row `n` goes, the first target first. */
  targets(n: number): RestoreTarget[] {
    const first = { file: this.firstFile[n]!, offset: this.firstOffset[n]! };
    const more = this.moreTargets.get(n);
    return more ? [first, ...more] : [first];
  }

  /**
   * Ends planning: the needed rows grouped by pack, each group in pack order, so a pack
   * is read front to back once. The lookup by index entry is dropped.
   */
  byPack(): { pack: number; rows: number[] }[] {
    this.rowOfEntry = new Int32Array(0);
    const { index } = this;
    const order = new Int32Array(this.count);
    for (let n = 0; n < this.count; n++) order[n] = n;
    order.sort((a, b) => {
      const ea = this.entries[a]!;
      const eb = this.entries[b]!;
      return index.packNumberAt(ea) - index.packNumberAt(eb) || index.offsetAt(ea) - index.offsetAt(eb);
    });
    const groups: { pack: number; rows: number[] }[] = [];
    for (const n of order) {
      const pack = index.packNumberAt(this.entries[n]!);
      const last = groups[groups.length - 1];
      if (last?.pack === pack) last.rows.push(n);
      else groups.push({ pack, rows: [n] });
    }
    return groups;
  }
}
