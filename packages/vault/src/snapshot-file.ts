import type { Repository } from './repository.js';
import { findSnapshot } from './snapshot.js';
import { loadTree } from './tree.js';

/**
 * The bytes of one file of a snapshot, one blob at a time (a caller writes them where it
 * wants them, such as a catalog it reads back in pieces); throws before the first piece
 * when the snapshot has no such file.
 */
export async function* snapshotFilePieces(repo: Repository, snapshotId: string, path: string): AsyncGenerator<Buffer> {
  const { snapshot } = await findSnapshot(repo, snapshotId);
  let tree = snapshot.tree;
  const names = path.split('/');
  for (const [i, name] of names.entries()) {
    const node = (await loadTree(repo, tree)).nodes.find((n) => n.name === name);
    const last = i === names.length - 1;
    if (last && node?.type === 'file') {
      for (const chunk of node.chunks ?? []) yield await repo.readBlob(Buffer.from(chunk, 'hex'));
      return;
    }
    if (last || node?.type !== 'dir' || !node.subtree) break;
    tree = node.subtree;
  }
  throw new Error(`snapshot ${snapshotId.slice(0, 8)} has no file ${path}`);
}

/**
 * The bytes of one file of a snapshot, read from its blobs in memory (for small files a
 * caller keeps beside its data); throws when the snapshot has no such file.
 */
export async function readSnapshotFile(repo: Repository, snapshotId: string, path: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of snapshotFilePieces(repo, snapshotId, path)) pieces.push(piece);
  return Buffer.concat(pieces);
}
