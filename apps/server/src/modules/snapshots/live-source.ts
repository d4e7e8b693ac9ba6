import { SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import type { BackupSource, SourceEntry } from '@bogwan/vault';
import { AppError } from '../../errors.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { LocalBlobStore } from '../../storage/local-blob-store.js';
import type { FileTree, NodeRow } from '../files/ports.js';
import { type BuiltCatalog, type CatalogBuilder, catalogBytes } from './catalog.js';
import type { UnchangedFolder, UnchangedFolders } from './unchanged-folders.js';

const FILE_MODE = 0o644;
const DIR_MODE = 0o755;

function entryOf(path: string, node: NodeRow): Omit<SourceEntry, 'type' | 'size'> {
  return { path, mode: node.folder === 1 ? DIR_MODE : FILE_MODE, mtimeMs: Date.parse(node.mtime) || 0 };
}

/**
 * The live store as the backup engine reads it: each chosen root folder becomes a
 * top-level directory, walked through the file tree; file bytes stream from the blob
 * store of the root's backend. The content hash the store already knows lets an
 * incremental backup reuse the parent's chunks without reading. A file on the server
 * backend also names its blob file, so the engine may read it on its reader threads
 * (a read that fails there goes through `open`, whose error is the product's). A folder
 * that `unchanged` finds as it was in the parent snapshot is given without its contents
 * (the engine takes the parent's tree for it) and is not walked. The catalog (owners,
 * hashes, backends) is written to a file on the way and added last, at the top, read from
 * that file in pieces.
 */
export async function* liveSource(
  tree: FileTree,
  stores: BlobStores,
  roots: NodeRow[],
  catalog: CatalogBuilder,
  finishCatalog: () => Promise<BuiltCatalog>,
  unchanged: UnchangedFolders | null = null,
): BackupSource {
  const files = new FileEntries(stores);
  // Folders found unchanged among the children just listed: given before the walk goes on.
  const skipped: SourceEntry[] = [];
  const pathOf = new Map<string, string>();
  const keep = async (children: NodeRow[]): Promise<NodeRow[]> => {
    const walked: NodeRow[] = [];
    for (const child of children) {
      const path = `${pathOf.get(child.parent_id)}/${child.name}`;
      const found = child.folder === 1 ? unchanged?.find(path, child.id) : undefined;
      if (!found) {
        walked.push(child);
        continue;
      }
      await catalog.add(path, child);
      skipped.push(await reused(path, child, found));
    }
    return walked;
  };
  // The folder's own row is the caller's to add first (it is listed in its parent); those below come from the parent's catalog.
  const reused = async (path: string, folder: NodeRow, found: UnchangedFolder): Promise<SourceEntry> => {
    await catalog.copy(found);
    const { files: count, dirs, size } = found;
    return { ...entryOf(path, folder), type: 'dir', size: 0, unchanged: { files: count, dirs, size, contents: () => files.under(tree, folder, path) } };
  };
  for (const root of [...roots].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    await catalog.addRoot(root);
    const found = unchanged?.find(root.name, root.id);
    if (found) {
      yield await reused(root.name, root, found);
      continue;
    }
    yield { ...entryOf(root.name, root), type: 'dir', size: 0 };
    pathOf.set(root.id, root.name);
    for await (const { node, relativePath } of tree.walk(root, keep)) {
      yield* skipped.splice(0);
      const path = `${root.name}/${relativePath}`;
      await catalog.add(path, node);
      if (node.folder === 1) pathOf.set(node.id, path);
      yield await files.entry(path, node);
    }
    yield* skipped.splice(0);
  }
  const { file, size, digest, createdAt } = await finishCatalog();
  yield {
    path: SNAPSHOT_CATALOG_NAME,
    type: 'file',
    mode: FILE_MODE,
    // The catalog's own time: a catalog kept from the parent leaves the top directory as it was.
    mtimeMs: Date.parse(createdAt) || Date.now(),
    size,
    // By its hash: a catalog that says what the parent's said is kept without being read.
    contentHash: digest,
    // Read by the engine from the file itself, in its window, rather than as a stream of 1 MiB
    // pieces joined up to chunk size (a copy of every byte again: 157 MB at 1M files).
    file,
    open: () => catalogBytes(file),
  };
}

/** Source entries of live nodes: folders, and files whose bytes come from the blob store. */
class FileEntries {
  private local: LocalBlobStore | undefined;

  constructor(private readonly stores: BlobStores) {}

  async entry(path: string, node: NodeRow): Promise<SourceEntry> {
    if (node.folder === 1) return { ...entryOf(path, node), type: 'dir', size: 0 };
    return {
      ...entryOf(path, node),
      type: 'file',
      size: node.size,
      ...(node.content_hash ? { contentHash: node.content_hash } : {}),
      ...(node.backend === 'server' && node.blob_key && node.size > 0 ? { file: blobFile((this.local ??= await this.stores.local()), node.blob_key) } : {}),
      open: () => blobBytes(this.stores, node),
    };
  }

  /** Everything below a folder, for the engine when it cannot take the folder from the parent (its catalog rows are already in). */
  async *under(tree: FileTree, folder: NodeRow, path: string): AsyncIterable<SourceEntry> {
    for await (const { node, relativePath } of tree.walk(folder)) yield await this.entry(`${path}/${relativePath}`, node);
  }
}

/** The file of a blob in the local store; undefined for a key it would refuse. */
function blobFile(store: LocalBlobStore, key: string): string | undefined {
  try {
    return store.pathOf(key);
  } catch {
    return undefined;
  }
}

async function* blobBytes(stores: BlobStores, node: NodeRow): AsyncGenerator<Uint8Array> {
  if (node.size === 0) return;
  const store = await stores.forBackend(node.backend);
  if (!store || !node.blob_key) throw new AppError(500, 'snapshot_source_missing');
  let stream;
  try {
    stream = await store.get(node.blob_key);
  } catch {
    throw new AppError(500, 'snapshot_source_missing');
  }
  for await (const piece of stream) yield piece as Buffer;
}
