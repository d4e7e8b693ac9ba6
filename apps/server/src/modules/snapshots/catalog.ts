import type { SnapshotItem } from '@bogwan/contracts';
import type { NodeRow } from '../files/ports.js';

// The catalog: a file each snapshot carries at its top (SNAPSHOT_CATALOG_NAME) with
// what the backup engine's own tree does not hold: owners, content hashes (SHA-256, as
// the store keys blobs) and each root folder's backend. Compact rows keep it small.

/**
 * One row: [path, folder 0/1, size, mtime ISO, owner index or -1, SHA-256 or ''], and for
 * a folder also [node id, its change count when walked] (see unchanged-folders.ts).
 */
export type CatalogRow = [string, 0 | 1, number, string, number, string] | [string, 0 | 1, number, string, number, string, string, number];

export interface CatalogFile {
  version: 1;
  createdAt: string;
  roots: { name: string; backend: string }[];
  /** Owners by index, with their email so a restore elsewhere can find them again. */
  owners: { id: string; email: string }[];
  rows: CatalogRow[];
}

/** A finished catalog: its bytes and its time (the parent's, when it is the parent's catalog). */
export interface BuiltCatalog {
  data: Buffer;
  createdAt: string;
}

/** A catalog as stored: its bytes, and them read. */
export interface StoredCatalog {
  data: Buffer;
  file: CatalogFile;
}

/**
 * Collects the catalog while the live store is walked. `changes` are the folders' change
 * counts read before the walk, kept with each folder; rows of an unchanged folder come from
 * the parent snapshot's catalog (`copy`).
 */
export class CatalogBuilder {
  private readonly roots: CatalogFile['roots'] = [];
  private readonly ownerIndex = new Map<string, number>();
  private readonly rows: CatalogRow[] = [];

  constructor(
    private readonly changes: Map<string, number> = new Map(),
    private readonly previous: StoredCatalog | null = null,
  ) {}

  addRoot(root: NodeRow): void {
    this.roots.push({ name: root.name, backend: root.backend });
    this.add(root.name, root);
  }

  add(path: string, node: NodeRow): void {
    const owner = this.ownerOf(node.owner_id);
    if (node.folder === 1) this.rows.push([path, 1, node.size, node.mtime, owner, node.content_hash ?? '', node.id, this.changes.get(node.id) ?? 0]);
    else this.rows.push([path, 0, node.size, node.mtime, owner, node.content_hash ?? '']);
  }

  /** Adds the previous catalog's rows `from` to `to` (exclusive), their owners mapped to this catalog's. */
  copy(from: number, to: number): void {
    const { rows, owners } = this.previous!.file;
    for (let i = from; i < to; i++) {
      const row = [...rows[i]!] as CatalogRow;
      row[4] = this.ownerOf(owners[row[4]]?.id ?? null);
      this.rows.push(row);
    }
  }

  private ownerOf(ownerId: string | null): number {
    if (!ownerId) return -1;
    const owner = this.ownerIndex.get(ownerId) ?? this.ownerIndex.size;
    this.ownerIndex.set(ownerId, owner);
    return owner;
  }

  /**
   * The finished catalog; owner emails are looked up once at the end. When it says exactly
   * what the previous one said, the previous bytes are answered: the snapshot then keeps
   * the stored catalog as it is (same content hash, nothing to read or store).
   */
  build(emails: Map<string, string>): BuiltCatalog {
    const owners = [...this.ownerIndex.keys()].map((id) => ({ id, email: emails.get(id) ?? '' }));
    const file: CatalogFile = { version: 1, createdAt: new Date().toISOString(), roots: this.roots, owners, rows: this.rows };
    if (this.previous && sameCatalog(file, this.previous.file)) return { data: this.previous.data, createdAt: this.previous.file.createdAt };
    return { data: Buffer.from(JSON.stringify(file)), createdAt: file.createdAt };
  }

  ownerIds(): string[] {
    return [...this.ownerIndex.keys()];
  }
}

function sameRow(a: CatalogRow, b: CatalogRow): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** True when two catalogs hold the same roots, owners and rows (their times aside). */
function sameCatalog(a: CatalogFile, b: CatalogFile): boolean {
  if (a.rows.length !== b.rows.length || JSON.stringify([a.roots, a.owners]) !== JSON.stringify([b.roots, b.owners])) return false;
  return a.rows.every((row, i) => sameRow(row, b.rows[i]!));
}

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

/** A stored catalog's file, as written (not checked further). */
export function parseCatalogFile(data: Buffer): CatalogFile {
  return JSON.parse(data.toString('utf8')) as CatalogFile;
}

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** A snapshot's catalog, indexed for browsing and for choosing what a restore brings back. */
export class Catalog {
  private readonly byPath = new Map<string, CatalogEntry>();
  private readonly children = new Map<string, CatalogEntry[]>();
  readonly roots: CatalogFile['roots'];

  constructor(file: CatalogFile) {
    if (file.version !== 1 || !Array.isArray(file.rows)) throw new Error('unknown catalog format');
    this.roots = file.roots;
    for (const [p, folder, size, mtime, owner, hash] of file.rows) {
      const entry: CatalogEntry = {
        path: p,
        name: p.slice(p.lastIndexOf('/') + 1),
        folder: folder === 1,
        size,
        mtime,
        owner: file.owners[owner] ?? null,
        hash,
      };
      this.byPath.set(p, entry);
      const siblings = this.children.get(parentOf(p)) ?? [];
      siblings.push(entry);
      this.children.set(parentOf(p), siblings);
    }
    for (const list of this.children.values()) list.sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name));
  }

  static parse(data: Buffer): Catalog {
    return new Catalog(parseCatalogFile(data));
  }

  get(path: string): CatalogEntry | undefined {
    return this.byPath.get(path);
  }

  /** The entries directly inside a folder ('' is the top: the root folders). */
  list(path: string): SnapshotItem[] {
    return (this.children.get(path) ?? []).map((e) => ({
      path: e.path,
      name: e.name,
      folder: e.folder,
      size: e.size,
      mtime: e.mtime,
      owner: e.owner?.email || null,
    }));
  }

  /** The item and everything under it, parents before children. */
  *under(path: string): Generator<CatalogEntry> {
    const entry = this.byPath.get(path);
    if (!entry) return;
    yield entry;
    if (!entry.folder) return;
    const stack = [...(this.children.get(path) ?? [])].reverse();
    while (stack.length > 0) {
      const next = stack.pop()!;
      yield next;
      if (next.folder) stack.push(...[...(this.children.get(next.path) ?? [])].reverse());
    }
  }

  rootBackend(rootName: string): 'server' | 'cloud' {
    return this.roots.find((r) => r.name === rootName)?.backend === 'cloud' ? 'cloud' : 'server';
  }
}
