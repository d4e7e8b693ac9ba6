import { BlobType } from './blob-index.js';
import type { Repository } from './repository.js';
import type { BlobWriter } from './writer.js';

/** One entry of a directory as stored in a tree blob. */
export interface TreeNode {
  name: string;
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  mtimeMs: number;
  size: number;
  /** Change detection for files read from disk. */
  ctimeMs?: number;
  inode?: number;
  /** Change detection for sources that already know a content hash. */
  hash?: string;
  uid?: number;
  gid?: number;
  /** Data blob ids (hex) in file order. */
  chunks?: string[];
  /** Tree blob id (hex) of a directory. */
  subtree?: string;
  /** Symlink target. */
  target?: string;
}

/** A directory: its entries sorted by name. */
export interface Tree {
  nodes: TreeNode[];
}

// A directory's entries kept while it is open. A TreeNode object with its strings and its
// chunk list takes ~500 bytes of JS heap and the JSON of a whole directory a string as large
// again; a directory of 100,000 files held ~90 MiB live in the heap, and V8 let garbage build
// up in proportion. Each entry is kept as its JSON in UTF-8, in pieces outside the heap, with
// only its name (for the sort) and where its bytes lie on the heap.
const FIRST_PIECE = 4 * 1024;
const PIECE_MAX = 1024 * 1024;

/** A string of its own: a slice of a longer string keeps that string alive in V8. */
function flat(name: string): string {
  return name.length < 13 ? name : Buffer.from(name, 'utf16le').toString('utf16le');
}

/**
 * The entries of a directory as they are added, kept as the bytes they take in its tree
 * blob: `blob()` gives the same bytes as `JSON.stringify({ nodes })` with the nodes sorted
 * by name (as saveTree always did), so tree ids do not change.
 */
export class NodeList {
  private readonly names: string[] = [];
  /** Per entry: its piece, its offset there and its byte length. */
  private readonly piece: number[] = [];
  private readonly offset: number[] = [];
  private readonly bytes: number[] = [];
  private readonly pieces: Buffer[] = [];
  private used = 0;
  private total = 0;

  get length(): number {
    return this.names.length;
  }

  /** Bytes of JSON held (the blob's size, less its brackets and commas). */
  get size(): number {
    return this.total;
  }

  push(node: TreeNode): void {
    const json = JSON.stringify(node);
    const length = Buffer.byteLength(json);
    let last = this.pieces.at(-1);
    if (!last || last.length - this.used < length) {
      const size = Math.max(length, Math.min(PIECE_MAX, (last?.length ?? FIRST_PIECE / 2) * 2));
      last = Buffer.allocUnsafeSlow(size);
      this.pieces.push(last);
      this.used = 0;
    }
    last.write(json, this.used, 'utf8');
    // A copy: a name cut from its entry's path would keep the whole path alive.
    this.names.push(flat(node.name));
    this.piece.push(this.pieces.length - 1);
    this.offset.push(this.used);
    this.bytes.push(length);
    this.used += length;
    this.total += length;
  }

  /** The entries in the order they were added, read back. */
  *nodes(): Generator<TreeNode> {
    for (let i = 0; i < this.names.length; i++) yield JSON.parse(this.entry(i).toString('utf8')) as TreeNode;
  }

  /**
   * The tree blob: the entries sorted by name, as JSON. The list gives its pieces up (it is
   * empty afterwards), so that they can be collected before the blob is sealed.
   */
  blob(): Buffer {
    const names = this.names;
    const order = names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
    const head = Buffer.from('{"nodes":[');
    const out = Buffer.allocUnsafe(head.length + this.total + Math.max(0, order.length - 1) + 2);
    let at = head.copy(out, 0);
    order.forEach((i, k) => {
      if (k > 0) out[at++] = 0x2c; // ,
      at += this.entry(i).copy(out, at);
    });
    out.write(']}', at, 'latin1');
    this.pieces.length = 0;
    this.names.length = 0;
    this.piece.length = 0;
    this.offset.length = 0;
    this.bytes.length = 0;
    this.used = 0;
    this.total = 0;
    return out;
  }

  private entry(i: number): Buffer {
    const start = this.offset[i]!;
    return this.pieces[this.piece[i]!]!.subarray(start, start + this.bytes[i]!);
  }
}

/** Serialises and stores a tree; identical directories dedupe to the same blob. */
export async function saveTree(repo: Repository, writer: BlobWriter, nodes: TreeNode[] | NodeList): Promise<string> {
  if (nodes instanceof NodeList) return storeTree(repo, writer, nodes.blob());
  nodes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return storeTree(repo, writer, Buffer.from(JSON.stringify({ nodes } satisfies Tree)));
}

/** Stores a tree blob already made (NodeList.blob); returns its id. */
export async function storeTree(repo: Repository, writer: BlobWriter, data: Buffer): Promise<string> {
  const id = repo.id(data);
  await writer.add(id, BlobType.Tree, data);
  return id.toString('hex');
}

/** Loads and verifies a tree blob. */
export async function loadTree(repo: Repository, id: string): Promise<Tree> {
  return JSON.parse((await repo.readBlob(Buffer.from(id, 'hex'))).toString('utf8')) as Tree;
}

/**
 * Visits every node of a snapshot tree depth-first with its relative path. Without
 * `onDamage` an unreadable tree throws; with it, that directory is reported and skipped.
 */
export async function walkTree(
  repo: Repository,
  root: string,
  visit: (path: string, node: TreeNode) => Promise<void> | void,
  prefix = '',
  onDamage?: (path: string, err: Error) => void,
): Promise<void> {
  let tree: Tree;
  try {
    tree = await loadTree(repo, root);
  } catch (err) {
    if (!onDamage) throw err;
    onDamage(prefix || '/', err as Error);
    return;
  }
  for (const node of tree.nodes) {
    const path = prefix ? `${prefix}/${node.name}` : node.name;
    await visit(path, node);
    if (node.type === 'dir' && node.subtree) await walkTree(repo, node.subtree, visit, path, onDamage);
  }
}
