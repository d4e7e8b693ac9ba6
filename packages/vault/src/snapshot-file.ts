import type { Repository } from './repository.js';
import { findSnapshot } from './snapshot.js';
import { loadTree } from './tree.js';

/**
 * The bytes of one file of a snapshot, read from its blobs in memory (for small files a
 * caller keeps beside its data, such as a catalog); throws when the snapshot has no such file.
 */
export async function readSnapshotFile(repo: Repository, snapshotId: string, path: string): Promise<Buffer> {
  const { snapshot } = await findSnapshot(repo, snapshotId);
  let tree = snapshot.tree;
  const names = path.split('/');
  for (const [i, name] of names.entries()) {
    const node = (await loadTree(repo, tree)).nodes.find((n) => n.name === name);
    const last = i === names.length - 1;
    if (last && node?.type === 'file') {
      const pieces: Buffer[] = [];
      for (const chunk of node.chunks ?? []) pieces.push(await repo.readBlob(Buffer.from(chunk, 'hex')));
      return Buffer.concat(pieces);
    }
    if (last || node?.type !== 'dir' || !node.subtree) break;
    tree = node.subtree;
  }
  throw new Error(`snapshot ${snapshotId.slice(0, 8)} has no file ${path}`);
}
