// The installation as database rows, as the product writes them: nodes (folders, files,
// trash entries), one blob row per content, the indexer's text row per content (its text
// and character pairs for text files, 'skipped' for the others), and the root's counters.
import { newId } from '../../apps/server/src/ids.js';
import { textBigrams } from '../../apps/server/src/modules/search/search-bigrams.js';
import { blobKeyOf } from '../../apps/server/src/storage/blob-store.js';
import { type FileSpec, fileAt, fileCounts, folderSpecs } from './installation.js';

export interface NodeRow {
  id: string;
  parent_id: string;
  root_id: string;
  name: string;
  folder: number;
  size: number;
  mtime: string;
  content_hash: string | null;
  blob_key: string | null;
  backend: string;
  owner_id: string;
  trash_key: string;
  trashed_at: string | null;
  trashed_by: string | null;
  original_parent_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface TextRow {
  hash: string;
  status: 'indexed' | 'skipped';
  body: string;
  grams: string[];
}

export interface FileRows {
  node: NodeRow;
  blob: { hash: string; size: number };
  text: TextRow;
  spec: FileSpec;
}

export interface Owner {
  rootId: string;
  ownerId: string;
  now: string;
}

/** Nodes in the columns the loaders write (the others keep their defaults: '', 0, null). */
export const NODE_COLUMNS = [
  'id',
  'parent_id',
  'root_id',
  'name',
  'folder',
  'size',
  'mtime',
  'content_hash',
  'blob_key',
  'backend',
  'owner_id',
  'trash_key',
  'trashed_at',
  'trashed_by',
  'original_parent_id',
  'created_at',
  'updated_at',
] as const;

/** The folder rows, parents before children; their ids by folder index. */
export function folderRows(owner: Owner): { rows: NodeRow[]; ids: string[] } {
  const specs = folderSpecs();
  const ids = specs.map(() => newId());
  const rows = specs.map((spec) => {
    const parentId = spec.parent < 0 ? owner.rootId : ids[spec.parent]!;
    return node(owner, ids[spec.index]!, parentId, spec.name, spec.trashed, { folder: 1, size: 0, mtime: owner.now, hash: null });
  });
  return { rows, ids };
}

/** Every file's rows, in index order. */
export function* fileRows(owner: Owner, files: number, folderIds: string[]): Generator<FileRows> {
  const { total } = fileCounts(files);
  for (let i = 0; i < total; i += 1) {
    const spec = fileAt(i, files);
    const size = Buffer.byteLength(spec.body);
    yield {
      node: node(owner, newId(), folderIds[spec.folder]!, spec.name, spec.trashed, { folder: 0, size, mtime: spec.mtime, hash: spec.hash }),
      blob: { hash: spec.hash, size },
      text: spec.text
        ? { hash: spec.hash, status: 'indexed', body: spec.body, grams: textBigrams(spec.body) }
        : { hash: spec.hash, status: 'skipped', body: '', grams: [] },
      spec,
    };
  }
}

function node(
  owner: Owner,
  id: string,
  parentId: string,
  name: string,
  trashed: boolean,
  content: { folder: number; size: number; mtime: string; hash: string | null },
): NodeRow {
  return {
    id,
    parent_id: parentId,
    root_id: owner.rootId,
    name,
    folder: content.folder,
    size: content.size,
    mtime: content.mtime,
    content_hash: content.hash,
    blob_key: content.hash ? blobKeyOf(content.hash) : null,
    backend: 'server',
    owner_id: owner.ownerId,
    // A trash entry is keyed by its own id and remembers where it was (as `MovesService.trash` writes it).
    trash_key: trashed ? id : '',
    trashed_at: trashed ? owner.now : null,
    trashed_by: trashed ? owner.ownerId : null,
    original_parent_id: trashed ? parentId : null,
    created_at: owner.now,
    updated_at: owner.now,
  };
}
