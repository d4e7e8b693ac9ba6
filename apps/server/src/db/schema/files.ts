import type { Generated } from 'kysely';

// Tables of the schema (db/schema.ts): files, folders, uploads, versions, search and WebDAV.

/** One file or folder. Root folders have parent_id ''; root_id names the root (itself for a root). */
export interface NodesTable {
  id: string;
  parent_id: string;
  root_id: string;
  name: string;
  folder: number;
  size: number;
  mtime: string;
  content_hash: string | null;
  blob_key: string | null;
  /** server or cloud: where the contents live (set on roots, copied to descendants). */
  backend: string;
  owner_id: string | null;
  description: string;
  lock: number;
  /** Root folders: the volume limit in bytes (null: unlimited). */
  volume_limit: number | null;
  /** Root folders: bytes kept (live files, versions and trash), kept incrementally; the volume limit applies to it. */
  usage_bytes: number;
  /** Root folders: the part of usage_bytes held by file versions. */
  version_bytes: Generated<number>;
  /** Root folders: the part of usage_bytes held by the trash. */
  trash_bytes: Generated<number>;
  /** Who wrote the file's current content (null: its owner). */
  content_by: string | null;
  /** '' while live; the node's own id once trashed. */
  trash_key: string;
  trashed_at: string | null;
  trashed_by: string | null;
  original_parent_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Per folder, kept by triggers on `nodes` (migrations tree_changes and folder_counts): the
 * count of changes to its direct children a snapshot records, and its live children and live
 * sub-folders. A folder without a row has 0 of each. Written by the triggers only.
 */
export interface TreeChangesTable {
  folder_id: string;
  changes: number | string;
  live_children: number | string;
  live_folders: number | string;
}

export interface BlobsTable {
  backend: string;
  hash: string;
  size: number;
  ref_count: number;
  created_at: string;
}

/** An earlier content of a file, kept when it was replaced; holds a reference to its blob. */
export interface FileVersionsTable {
  id: string;
  node_id: string;
  /** The root whose usage counts it. */
  root_id: string;
  backend: string;
  content_hash: string;
  blob_key: string;
  size: number;
  author_id: string | null;
  /** When this content was written. */
  written_at: string;
  /** When it stopped being the current content (retention counts from here). */
  replaced_at: string;
}

/** A root folder's own version retention; a null field follows the global setting. */
export interface VersionPoliciesTable {
  root_id: string;
  max_versions: number | null;
  max_age_days: number | null;
  updated_at: string;
}

export interface UploadSessionsTable {
  id: string;
  user_id: string;
  parent_id: string;
  file_name: string;
  file_size: number;
  total_chunks: number;
  backend: string;
  created_at: string;
  updated_at: string;
  /** The client's upload id ('' when it sent none): part of the session's key. */
  client_key: Generated<string>;
}

/** The one write in progress of a chunk not yet recorded; `expires_at` in epoch ms. */
export interface UploadLeasesTable {
  session_id: string;
  idx: number;
  token: string;
  expires_at: number;
}

/** One reference an upload holds on a blob while it writes and links it. */
export interface BlobPinsTable {
  id: string;
  backend: string;
  hash: string;
  created_at: string;
}

export interface UploadChunksTable {
  session_id: string;
  idx: number;
  size: number;
  created_at: string;
  /** Random per write of the chunk ('' for chunks recorded before migration 0006). */
  token: Generated<string>;
}

export interface StarsTable {
  user_id: string;
  node_id: string;
  created_at: string;
}

export interface RecentsTable {
  user_id: string;
  node_id: string;
  used_at: string;
}

/** A move or copy of a root folder's contents between the server and cloud backends. */
export interface StorageSyncsTable {
  id: string;
  task_id: string;
  root_id: string;
  path: string;
  mode: string;
  source: string;
  target: string;
  target_name: string | null;
  status: string;
  bytes_total: number;
  bytes_done: number;
  error: string | null;
  owner_id: string;
  created_at: string;
  /** Heartbeat of the process running it. */
  updated_at: string;
}

/** A blob a sync copied and holds one reference on. */
export interface StorageSyncPinsTable {
  sync_id: string;
  backend: string;
  hash: string;
  size: number;
}

/** Text extracted from a file's contents for search, one row per content hash (copies share it). */
export interface SearchTextsTable {
  /** Row number (SQLite: the rowid the full-text index refers to). */
  seq: Generated<number>;
  hash: string;
  /** indexed, skipped (no text to extract) or failed. */
  status: string;
  body: string;
  /** 1 when the text was cut at the size cap. */
  truncated: number;
  updated_at: string;
}

/** SQLite only: node names mirrored by triggers, with an integer rowid for the trigram index. */
export interface SearchNamesTable {
  seq: Generated<number>;
  node_id: string;
  name: string;
}

/** A WebDAV write lock on a tree path (RFC 4918); `root` is the path's first segment. */
export interface DavLocksTable {
  token: string;
  root: string;
  path: string;
  depth: string;
  scope: string;
  owner_xml: string;
  account_id: string;
  timeout_seconds: number;
  created_at: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

/** A WebDAV dead property of a node (PROPPATCH): its XML namespace, local name and value as XML. */
export interface DavPropertiesTable {
  node_id: string;
  namespace: string;
  name: string;
  value: string;
  updated_at: string;
}
