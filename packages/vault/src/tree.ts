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

/** Serialises and stores a tree; identical directories dedupe to the same blob. */
export async function saveTree(repo: Repository, writer: BlobWriter, nodes: TreeNode[]): Promise<string> {
  nodes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const data = Buffer.from(JSON.stringify({ nodes } satisfies Tree));
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
