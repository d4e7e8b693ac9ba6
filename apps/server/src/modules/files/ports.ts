import type { PermissionType } from '@bogwan/contracts';
import type { Selectable } from 'kysely';
import type { NodesTable } from '../../db/schema.js';
import type { AuditEntry, AuditRecorder } from '../audit/audit.recorder.js';
import type { UserRow } from '../users/users.repo.js';

// The seams between the file tree (tree, metadata, permissions) and the transfer side
// (upload, download, preview, zip). The tree module implements them; transfer uses them.

export type NodeRow = Selectable<NodesTable>;

/** A file to add once its blob is stored. */
export interface NewFile {
  name: string;
  size: number;
  contentHash: string;
  blobKey: string;
  ownerId: string;
  mtime?: string;
  /**
   * The backend the blob was written to. When given, a folder on another backend (its
   * root was moved meanwhile) refuses the file with 409 `backend_mismatch_warning`.
   */
  backend?: string;
}

/**
 * An audit record a tree change writes in its own transaction, as its last statement: the
 * record commits, or rolls back, with the change (`entry` gets the node and its new path).
 */
export interface TreeAudit {
  recorder: AuditRecorder;
  entry: (node: NodeRow, path: string) => AuditEntry;
}

/** A node found under a folder, with its path relative to that folder (for zips). */
export interface WalkEntry {
  node: NodeRow;
  relativePath: string;
}

export interface FileTree {
  /** The live node at a path, or undefined. */
  resolve(path: string): Promise<NodeRow | undefined>;
  /** The absolute path of a live node. */
  pathOf(node: NodeRow): Promise<string>;
  /** The root folder a node belongs to (itself for a root). */
  rootOf(node: NodeRow): Promise<NodeRow>;
  /**
   * Adds a file under a folder and counts its bytes in the root's usage, in one
   * transaction. A name clash is 409 `file_exists_warning` unless `keepBoth`, which picks
   * a free numbered name. Answers the new node.
   * In the same transaction it adds one reference to the blob (`blobs` row of the
   * folder's backend and `contentHash`, created on first use) and notes the file as
   * Recent for its owner; a name that breaks the file-name rule, or a path that would pass
   * 4,096 UTF-8 bytes, is 400 `invalid_path`. The name is stored in NFC; a folder that is
   * gone or lies in the trash is 404 `folder_not_found`.
   */
  addFile(folder: NodeRow, file: NewFile, options?: { keepBoth?: boolean; audit?: TreeAudit }): Promise<NodeRow>;
  /**
   * Gives a live file new content, keeping the old as a version (see FileTreeService):
   * 413 `volume_exceeded_warning` past the limit; with `at`, 404 `folder_not_found` when the
   * file is no longer that name in that folder. `by`: the new content's author.
   */
  replaceFile(
    file: NodeRow,
    content: { size: number; contentHash: string; blobKey: string; backend: string; mtime?: string },
    options?: { audit?: TreeAudit; at?: { parentId: string; name: string }; by?: string },
  ): Promise<NodeRow>;
  /** Refuses (413 `volume_exceeded_warning`) when `bytes` more would pass the root's volume limit. */
  assertRoom(root: NodeRow, bytes: number): Promise<void>;
  /**
   * Every live descendant of a folder, files and folders, depth first; a folder's children
   * are read a page at a time. With `keep`, each page of a folder's children passes through
   * it (one call per page): only those it answers are yielded, and only the folders it
   * answers are walked into.
   */
  walk(folder: NodeRow, keep?: (children: NodeRow[]) => Promise<NodeRow[]>): AsyncIterable<WalkEntry>;
  /** The live root folders, by name. */
  roots(): Promise<NodeRow[]>;
  /**
   * The live folder `name` under `parent` (null: a root folder on `backend`), created
   * for `ownerId` when missing; a file in the way is 409 `file_exists_warning`. Used by
   * restores, which rebuild folder chains.
   */
  ensureFolder(parent: NodeRow | null, name: string, options: { ownerId: string | null; backend?: 'server' | 'cloud'; mtime?: string }): Promise<NodeRow>;
  /** Notes that the user opened or downloaded a node (Recent). */
  touch(userId: string, node: NodeRow): Promise<void>;
  /**
   * Calls `listener` with each file `addFile` added, once its transaction has committed
   * (search extracts its text). A listener must not throw; slow work it starts in the background.
   */
  onFileAdded(listener: (file: NodeRow) => void): void;
}

export interface FileAccess {
  /**
   * The one permission check of every file call: the live node at `path` when `user` may
   * do `permission` there; 404 `folder_not_found` when it does not exist, 403
   * `no_access_warning` when not allowed. Never trusts a user id from a payload.
   */
  require(user: UserRow, path: string, permission: PermissionType): Promise<NodeRow>;
  /** The permissions `user` holds on `path` (empty when none or missing). */
  permissionsAt(user: UserRow, path: string): Promise<PermissionType[]>;
  /** The nodes on which `user` holds `permission`, in their order (one query for the lot). */
  filter<T extends NodeRow>(user: UserRow, nodes: T[], permission: PermissionType): Promise<T[]>;
}

/**
 * One item a web change writes. `deep`: the change reaches everything under it too (a move,
 * rename or trash of a folder), so locks on its members count.
 */
export interface LockedWrite {
  /** Absolute tree path, e.g. `/영업부/a.txt` (any Unicode form; a trailing slash is ignored). */
  path: string;
  deep: boolean;
}

/**
 * The write locks other clients hold on the tree (WebDAV LOCK): the web's writes ask it
 * before they change anything, and tell it when an item left its path. Required by the file
 * and transfer modules (a missing port stops the boot, never skips the check).
 */
export interface WriteLocks {
  /**
   * Refuses (423 `file_locked_warning`) when a lock held by another account reaches one of
   * `targets` (the account's own locks never stand in its web session's way: the web has no
   * If header to submit their tokens with).
   */
  assertCanWrite(user: { id: string }, targets: LockedWrite[]): Promise<void>;
  /** The item at `path` moved or was renamed away: the locks on and under that URL end. */
  releaseUnder(path: string): Promise<void>;
}
