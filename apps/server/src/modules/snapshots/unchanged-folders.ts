import type { CatalogFile } from './catalog.js';

// Which folders of the live store a snapshot may take from its parent without walking
// them. Each folder row of the parent's catalog carries the folder's id and the change
// count it had when that snapshot read the counts (before walking). A trigger bumps a
// folder's count with every change to its direct children (migration tree_changes), so a
// folder whose count has not moved since has the very children it had then; when the same
// holds for every folder below it, and the folder is the same node at the same path, all
// its contents are as the parent snapshot stored them.

/** A folder taken from the parent: its rows in the parent's catalog and what lies below. */
export interface UnchangedFolder {
  /** Its own row and the rows below it: `rows[from..to)` of the parent's catalog. */
  from: number;
  to: number;
  files: number;
  dirs: number;
  size: number;
}

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** The folders of the parent snapshot that nothing has changed in since, by path. */
export class UnchangedFolders {
  private constructor(
    private readonly file: CatalogFile,
    /** Folder path → [row index, end of its rows, node id]; only folders with nothing changed at or below. */
    private readonly clean: Map<string, [number, number, string]>,
  ) {}

  /**
   * Reads the parent's catalog against the counts now; null when the catalog cannot tell
   * (written before folders carried their counts, or its rows not in walk order).
   */
  static of(file: CatalogFile, changes: Map<string, number>): UnchangedFolders | null {
    const rows = file.rows;
    const open: { path: string; index: number; dirty: boolean }[] = [];
    const clean = new Map<string, [number, number, string]>();
    const close = (end: number) => {
      const folder = open.pop()!;
      if (!folder.dirty) clean.set(folder.path, [folder.index, end, rows[folder.index]![6]!]);
    };
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const parent = parentOf(row[0]);
      while (open.length > 0 && open.at(-1)!.path !== parent) close(i);
      // A row whose folder is not the one open: the rows are not in walk order.
      if (open.length === 0 && parent !== '') return null;
      if (row[1] !== 1) continue;
      if (row.length !== 8) return null;
      const dirty = (changes.get(row[6]) ?? 0) !== row[7];
      if (dirty) {
        // Everything above a changed folder has changed below.
        for (let j = open.length - 1; j >= 0 && !open[j]!.dirty; j--) open[j]!.dirty = true;
      }
      open.push({ path: row[0], index: i, dirty });
    }
    while (open.length > 0) close(rows.length);
    return new UnchangedFolders(file, clean);
  }

  /** The folder at `path` when it is the node `id` there and nothing at or below it changed. */
  find(path: string, id: string): UnchangedFolder | undefined {
    const found = this.clean.get(path);
    if (!found || found[2] !== id) return undefined;
    const [from, to] = found;
    let files = 0;
    let dirs = 0;
    let size = 0;
    for (let i = from + 1; i < to; i++) {
      const row = this.file.rows[i]!;
      if (row[1] === 1) dirs++;
      else {
        files++;
        size += row[2];
      }
    }
    return { from, to, files, dirs, size };
  }
}
