import { SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import type { BackupSource, SourceEntry } from '@bogwan/vault';
import { AppError } from '../../errors.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { LocalBlobStore } from '../../storage/local-blob-store.js';
import type { FileTree, NodeRow } from '../files/ports.js';
import type { CatalogBuilder } from './catalog.js';

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
 * (a read that fails there goes through `open`, whose error is the product's). The
 * catalog (owners, hashes, backends) is collected on the way and added last, at the top.
 */
export async function* liveSource(
  tree: FileTree,
  stores: BlobStores,
  roots: NodeRow[],
  catalog: CatalogBuilder,
  finishCatalog: () => Promise<Buffer>,
): BackupSource {
  let local: LocalBlobStore | undefined;
  for (const root of [...roots].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    catalog.addRoot(root);
    yield { ...entryOf(root.name, root), type: 'dir', size: 0 };
    for await (const { node, relativePath } of tree.walk(root)) {
      const path = `${root.name}/${relativePath}`;
      catalog.add(path, node);
      if (node.folder === 1) {
        yield { ...entryOf(path, node), type: 'dir', size: 0 };
        continue;
      }
      yield {
        ...entryOf(path, node),
        type: 'file',
        size: node.size,
        ...(node.content_hash ? { contentHash: node.content_hash } : {}),
        ...(node.backend === 'server' && node.blob_key && node.size > 0 ? { file: blobFile((local ??= await stores.local()), node.blob_key) } : {}),
        open: () => blobBytes(stores, node),
      };
    }
  }
  const data = await finishCatalog();
  // A new mtime each time: the engine then always stores this run's catalog.
  yield {
    path: SNAPSHOT_CATALOG_NAME,
    type: 'file',
    mode: FILE_MODE,
    mtimeMs: Date.now(),
    size: data.length,
    open: async function* () {
      yield data;
    },
  };
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
