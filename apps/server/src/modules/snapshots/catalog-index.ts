import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SnapshotItem } from '@bogwan/contracts';
import SQLite from 'better-sqlite3';
import { type CatalogRow, lineBatches, parseCatalogFile, versionOf } from './catalog.js';

/** An entry of a read catalog. */
export interface CatalogEntry {
  path: string;
  name: string;
  folder: boolean;
  size: number;
  mtime: string;
  owner: { id: string; email: string } | null;
  hash: string;
}

type Roots = { name: string; backend: string }[];
type Owners = { id: string; email: string }[];

interface StoredRow {
  path: string;
  name: string;
  folder: number;
  size: number;
  mtime: string;
  owner: number;
  hash: string;
}

/** Rows inserted per transaction while the index is built; the event loop gets a turn between them. */
const BATCH = 2000;
/** SQLite's page cache while an index is built (4 to 10 s for a million rows against 10.7 to 16.8 with the small one), and afterwards. */
const BUILD_CACHE_KIB = 64 * 1024;
const BROWSE_CACHE_KIB = 8 * 1024;
/** Rows read per step of `under`: the statement never stays open across an await. */
const PAGE = 1000;

/**
 * The path itself, and the bounds of what lies below it: `/` and `0` are neighbours in
 * byte order, so the paths under `a` are those after `a/` and before `a0`.
 */
const below = (path: string): [string, string, string] => [path, `${path}/`, `${path}0`];

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/**
 * A snapshot's catalog (either version), indexed for browsing and for choosing what a
 * restore brings back. The rows live in a SQLite file of their own beside the staged
 * restores, not in memory: a catalog of a million files is ~150 MB of rows, several
 * times that as objects, and the restore wizard keeps a few catalogs open
 * (docs/decisions/backup.md, "Catalogs are browsed from an index file"). `close` removes
 * the file; files a stopped process left behind go at the next start (their names start
 * with `catalog-`).
 */
export class Catalog {
  private readonly statements: {
    get: SQLite.Statement<[string], StoredRow>;
    children: SQLite.Statement<[string], StoredRow>;
    below: SQLite.Statement<[string, string], StoredRow>;
    size: SQLite.Statement<[string, string, string], { size: number | null }>;
    owners: SQLite.Statement<[string, string, string], { owner: number }>;
  };

  private constructor(
    private readonly db: SQLite.Database,
    private readonly file: string,
    readonly roots: Roots,
    private readonly owners: Owners,
  ) {
    const columns = 'path, name, folder, size, mtime, owner, hash';
    this.statements = {
      // A path written twice answers its last row, as a map filled in order would.
      get: db.prepare(`select ${columns} from rows where path = ? order by id desc limit 1`),
      children: db.prepare(`select ${columns} from rows where parent = ?`),
      // Everything below a folder, by path: a folder's path sorts before every path under it.
      below: db.prepare(`select ${columns} from rows where path > ? and path < ? order by path limit ${PAGE}`),
      size: db.prepare('select sum(size) as size from rows where folder = 0 and (path = ? or (path > ? and path < ?))'),
      owners: db.prepare('select distinct owner from rows where owner >= 0 and (path = ? or (path > ? and path < ?))'),
    };
  }

  /** Reads a catalog file (either version) into an index file in `dir`. */
  static async read(file: string, dir: string): Promise<Catalog> {
    await fs.mkdir(dir, { recursive: true });
    const indexFile = path.join(dir, `catalog-index-${randomBytes(8).toString('hex')}.sqlite`);
    const db = new SQLite(indexFile);
    try {
      // Scratch data, rebuilt from the catalog whenever needed: no journal, no syncs.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      // A larger page cache while the rows go in (the indexes' pages are touched all over), a
      // small one once browsing: a few catalogs stay open.
      db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
      db.exec(`create table rows (id integer primary key, path text not null, parent text not null, name text not null,
        folder integer not null, size integer not null, mtime text not null, owner integer not null, hash text not null);
        create index rows_path on rows(path); create index rows_parent on rows(parent)`);
      const trailer = await fill(db, file);
      db.pragma(`cache_size = -${BROWSE_CACHE_KIB}`);
      db.pragma('shrink_memory');
      return new Catalog(db, indexFile, trailer.roots, trailer.owners);
    } catch (error) {
      db.close();
      await fs.rm(indexFile, { force: true });
      throw error;
    }
  }

  get(path: string): CatalogEntry | undefined {
    const row = this.statements.get.get(path);
    return row && this.entryOf(row);
  }

  /** The entries directly inside a folder ('' is the top: the root folders), folders first, then by name. */
  list(path: string): SnapshotItem[] {
    const rows = this.statements.children.all(path);
    rows.sort((a, b) => b.folder - a.folder || a.name.localeCompare(b.name));
    return rows.map((row) => ({
      path: row.path,
      name: row.name,
      folder: row.folder === 1,
      size: row.size,
      mtime: row.mtime,
      owner: this.owners[row.owner]?.email || null,
    }));
  }

  /** The item and everything under it, parents before children. */
  *under(path: string): Generator<CatalogEntry> {
    const entry = this.get(path);
    if (!entry) return;
    yield entry;
    if (!entry.folder) return;
    const [, start, end] = below(path);
    let after = start;
    for (;;) {
      const page = this.statements.below.all(after, end);
      for (const row of page) yield this.entryOf(row);
      if (page.length < PAGE) return;
      after = page.at(-1)!.path;
    }
  }

  /** The bytes of the files at or under `path`. */
  sizeUnder(path: string): number {
    return this.statements.size.get(...below(path))?.size ?? 0;
  }

  /** The owners of what lies at or under `path`. */
  ownersUnder(path: string): { id: string; email: string }[] {
    return this.statements.owners.all(...below(path)).flatMap(({ owner }) => this.owners[owner] ?? []);
  }

  rootBackend(rootName: string): 'server' | 'cloud' {
    return this.roots.find((r) => r.name === rootName)?.backend === 'cloud' ? 'cloud' : 'server';
  }

  /** Closes the index and removes its file. */
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
    await fs.rm(this.file, { force: true });
  }

  private entryOf(row: StoredRow): CatalogEntry {
    return {
      path: row.path,
      name: row.name,
      folder: row.folder === 1,
      size: row.size,
      mtime: row.mtime,
      owner: this.owners[row.owner] ?? null,
      hash: row.hash,
    };
  }
}

/** Puts a catalog file's rows into the index, a batch per transaction; answers its roots and owners. */
async function fill(db: SQLite.Database, file: string): Promise<{ roots: Roots; owners: Owners }> {
  const insert = db.prepare('insert into rows (path, parent, name, folder, size, mtime, owner, hash) values (?, ?, ?, ?, ?, ?, ?, ?)');
  const insertAll = db.transaction((rows: CatalogRow[]) => {
    for (const [p, folder, size, mtime, owner, hash] of rows) insert.run(p, parentOf(p), p.slice(p.lastIndexOf('/') + 1), folder, size, mtime, owner, hash);
  });
  let batch: CatalogRow[] = [];
  const flush = async () => {
    insertAll(batch);
    batch = [];
    await new Promise((resolve) => setImmediate(resolve));
  };
  if ((await versionOf(file)) === 1) {
    const old = parseCatalogFile(await fs.readFile(file));
    if (old.version !== 1 || !Array.isArray(old.rows)) throw new Error('unknown catalog format');
    for (const row of old.rows) {
      batch.push(row);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    return { roots: old.roots, owners: old.owners };
  }
  let trailer: { roots: Roots; owners: Owners } | null = null;
  let first = true;
  for await (const { lines } of lineBatches(file)) {
    for (const { line } of lines) {
      if (first) {
        first = false;
        continue;
      }
      if (line[0] === 0x5b /* [ */) {
        batch.push(JSON.parse(line.toString('utf8')) as CatalogRow);
        if (batch.length >= BATCH) await flush();
      } else if (line[0] === 0x7b /* { */) trailer = JSON.parse(line.toString('utf8')) as { roots: Roots; owners: Owners };
    }
  }
  await flush();
  if (!trailer) throw new Error('catalog without its trailer');
  return trailer;
}
