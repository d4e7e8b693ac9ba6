import type { SnapshotItem } from '@bogwan/contracts';
import type { NodeRow } from '../files/ports.js';

// The catalog: a file each snapshot carries at its top (SNAPSHOT_CATALOG_NAME) with
// what the backup engine's own tree does not hold: owners, content hashes (SHA-256, as
// the store keys blobs) and each root folder's backend. Compact rows keep it small.

/** One row: [path, folder 0/1, size, mtime ISO, owner index or -1, SHA-256 or ''] */
export type CatalogRow = [string, 0 | 1, number, string, number, string];

export interface CatalogFile {
  version: 1;
  createdAt: string;
  roots: { name: string; backend: string }[];
  /** Owners by index, with their email so a restore elsewhere can find them again. */
  owners: { id: string; email: string }[];
  rows: CatalogRow[];
}

/** Collects the catalog while the live store is walked. */
export class CatalogBuilder {
  private readonly roots: CatalogFile['roots'] = [];
  private readonly ownerIndex = new Map<string, number>();
  private readonly rows: CatalogRow[] = [];

  addRoot(root: NodeRow): void {
    this.roots.push({ name: root.name, backend: root.backend });
    this.add(root.name, root);
  }

  add(path: string, node: NodeRow): void {
    let owner = -1;
    if (node.owner_id) {
      owner = this.ownerIndex.get(node.owner_id) ?? this.ownerIndex.size;
      this.ownerIndex.set(node.owner_id, owner);
    }
    this.rows.push([path, node.folder === 1 ? 1 : 0, node.size, node.mtime, owner, node.content_hash ?? '']);
  }

  /** The finished catalog; owner emails are looked up once at the end. */
  build(emails: Map<string, string>): Buffer {
    const owners = [...this.ownerIndex.keys()].map((id) => ({ id, email: emails.get(id) ?? '' }));
    const file: CatalogFile = { version: 1, createdAt: new Date().toISOString(), roots: this.roots, owners, rows: this.rows };
    return Buffer.from(JSON.stringify(file));
  }

  ownerIds(): string[] {
    return [...this.ownerIndex.keys()];
  }
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
    return new Catalog(JSON.parse(data.toString('utf8')) as CatalogFile);
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
