import { isValidFileName, joinPath, normalizeName, pathFits, splitPath, utf8Length } from '@bogwan/contracts';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { type NodesRepo, isUniqueViolation } from './nodes.repo.js';
import type { FileTree, NewFile, NodeRow, TreeAudit, WalkEntry } from './ports.js';
import { bytesFreedByReplacing, keepReplacedContent, versionsIn } from '../versions/version-keeper.js';

/** What to do when a name is taken: fail, or keep both under a numbered name. */
export type OnConflict = 'error' | 'keep-both';

/** How many numbered names are tried for "keep both" before giving up. */
const KEEP_BOTH_TRIES = 1000;
const KEEP_BOTH_BATCH = 25;

/** How often a tree change starts again when a node moved to another root while it waited for the lock. */
const LOCK_TRIES = 5;
/** Children of a folder read at a time while walking. */
const WALK_PAGE = 1000;

export const volumeExceeded = () => new AppError(413, 'volume_exceeded_warning');
export const folderNotFound = () => notFound('folder_not_found');
/** A path past 4,096 UTF-8 bytes: the spec's key for a path that cannot be. */
export const pathTooLong = () => badRequest('invalid_path');

/**
 * The tree as metadata: resolving paths, adding files with their usage, walking
 * subtrees. Implements the `FileTree` seam that the transfer side uses.
 */
export class FileTreeService implements FileTree {
  private readonly fileAddedListeners: ((file: NodeRow) => void)[] = [];
  private readonly trashMoveListeners: ((nodeIds: string[]) => Promise<void>)[] = [];

  constructor(readonly repo: NodesRepo) {}

  async resolve(path: string): Promise<NodeRow | undefined> {
    const segments = splitPath(path);
    if (!segments || segments.length === 0) return undefined;
    let node: NodeRow | undefined;
    for (const segment of segments) {
      node = await this.repo.findLiveChild(node?.id ?? '', segment);
      if (!node) return undefined;
    }
    return node;
  }

  async pathOf(node: NodeRow): Promise<string> {
    const path = (await this.livePaths([node.id])).get(node.id);
    if (path === undefined) throw folderNotFound();
    return path;
  }

  /**
   * Absolute paths of the given nodes that are live: neither they nor any folder above
   * them is in the trash. Nodes that are not live are left out of the map.
   */
  async livePaths(ids: string[], repo = this.repo): Promise<Map<string, string>> {
    const paths = new Map<string, string>();
    for (const [id, chain] of await chainsOf(repo, ids)) {
      if (isLiveChain(chain)) paths.set(id, pathOfChain(chain));
    }
    return paths;
  }

  /** Paths the given nodes have or had, trashed or not; left out when a folder above is gone. */
  async anyPaths(ids: string[]): Promise<Map<string, string>> {
    const paths = new Map<string, string>();
    for (const [id, chain] of await chainsOf(this.repo, ids)) {
      if (chain.at(-1)?.parent_id === '') paths.set(id, pathOfChain(chain));
    }
    return paths;
  }

  async rootOf(node: NodeRow): Promise<NodeRow> {
    if (node.parent_id === '') return node;
    const root = await this.repo.findById(node.root_id);
    if (!root) throw folderNotFound();
    return root;
  }

  async addFile(folder: NodeRow, file: NewFile, options: { keepBoth?: boolean; audit?: TreeAudit } = {}): Promise<NodeRow> {
    const fileName = normalizeName(file.name);
    if (!isValidFileName(fileName)) throw badRequest('invalid_path');
    if (folder.folder !== 1) throw folderNotFound();
    const added = await uniqueNames(() =>
      this.locked([folder], async (repo, [parent]) => {
        if (file.backend !== undefined && file.backend !== parent.backend) throw conflict('backend_mismatch_warning');
        const name = await placeName(repo, parent.id, fileName, false, options.keepBoth ? 'keep-both' : 'error');
        const folderPath = await this.assertPlaceable(repo, parent, name);
        if (!(await repo.addUsage(parent.root_id, file.size, true))) throw volumeExceeded();
        await repo.addBlobRefs(parent.backend, file.contentHash, file.size);
        const now = new Date().toISOString();
        const row: NodeRow = {
          ...blankNode(parent, now),
          name,
          folder: 0,
          size: file.size,
          mtime: file.mtime ?? now,
          content_hash: file.contentHash,
          blob_key: file.blobKey,
          owner_id: file.ownerId,
        };
        await repo.insert([row]);
        await repo.touch(file.ownerId, row.id, now);
        if (options.audit) await options.audit.recorder.record(options.audit.entry(row, joinPath(folderPath, name)), repo.trx);
        return row;
      }),
    );
    for (const listener of this.fileAddedListeners) listener(added);
    return added;
  }

  /**
   * Gives a file new content (upload with replace, WebDAV PUT, version restore) in one
   * transaction under the tree lock. The old content is kept as a version when the retention
   * keeps any (`keepReplacedContent`: the version takes over its blob reference, the oldest
   * versions past the count go), so the root's usage grows by the new size (413
   * `volume_exceeded_warning` past the limit, nothing changed); the new blob gains a reference,
   * and the node takes the new size, hash, key and time, and `by` as its content's author. The
   * node keeps its id, name and place. A file gone meanwhile is 404 `folder_not_found`; bytes
   * stored on another backend than the file's are 409 `backend_mismatch_warning`; with `at`, a
   * file no longer called that in that folder is 404 too. Answers the node as it is now and
   * tells the `onFileAdded` listeners (search extracts the new text).
   */
  async replaceFile(
    file: NodeRow,
    content: { size: number; contentHash: string; blobKey: string; backend: string; mtime?: string },
    options: { audit?: TreeAudit; at?: { parentId: string; name: string }; by?: string } = {},
  ): Promise<NodeRow> {
    const replaced = await this.locked([file], async (repo, [current]) => {
      if (current.trash_key !== '' || current.folder === 1) throw folderNotFound();
      // `at`: the file must still be that name in that folder (else it is gone from there: 404).
      if (options.at && (current.parent_id !== options.at.parentId || current.name !== options.at.name)) throw folderNotFound();
      if (content.backend !== current.backend) throw conflict('backend_mismatch_warning');
      // The old content becomes a version (as the retention allows), in this transaction.
      if (!(await keepReplacedContent(repo, current, content))) throw volumeExceeded();
      const now = new Date().toISOString();
      const patch = {
        size: content.size,
        content_hash: content.contentHash,
        blob_key: content.blobKey,
        mtime: content.mtime ?? now,
        updated_at: now,
        content_by: options.by ?? null,
      };
      await repo.update(current.id, patch);
      const updated = { ...current, ...patch };
      // Recorded in this transaction, last (as addFile does): no record without the change.
      if (options.audit)
        await options.audit.recorder.record(options.audit.entry(updated, (await this.livePaths([updated.id], repo)).get(updated.id) ?? updated.name), repo.trx);
      return updated;
    });
    for (const listener of this.fileAddedListeners) listener(replaced);
    return replaced;
  }

  /** What replacing `file`'s content would give back of its root's usage under the retention (see `replaceFile`). */
  bytesFreedByReplacing(file: NodeRow): Promise<number> {
    return this.repo.transaction((repo) => bytesFreedByReplacing(versionsIn(repo), file));
  }

  /**
   * Runs `fn` in one transaction that holds the tree lock of the roots `nodes` belong to,
   * with those nodes as they are under the lock, in the order given (404 `folder_not_found`
   * when one is gone). A node that moved to another root meanwhile makes it start again with
   * that root locked too.
   */
  async locked<T, const N extends readonly NodeRow[]>(
    nodes: N,
    fn: (repo: NodesRepo, current: { -readonly [K in keyof N]: NodeRow }) => Promise<T>,
  ): Promise<T> {
    let roots = nodes.map((node) => node.root_id);
    for (let attempt = 0; attempt < LOCK_TRIES; attempt += 1) {
      const outcome = await this.repo.transaction(async (repo): Promise<{ value: T } | { retry: string[] }> => {
        await repo.lockRoots(roots);
        const byId = new Map((await repo.findByIds(nodes.map((node) => node.id))).map((row) => [row.id, row]));
        const current = nodes.map((node) => byId.get(node.id));
        if (current.some((row) => row === undefined)) throw folderNotFound();
        const rows = current as NodeRow[];
        if (rows.some((row) => !roots.includes(row.root_id))) return { retry: [...roots, ...rows.map((row) => row.root_id)] };
        return { value: await fn(repo, rows as { -readonly [K in keyof N]: NodeRow }) };
      });
      if ('value' in outcome) return outcome.value;
      roots = outcome.retry;
    }
    throw conflict('request_error_message');
  }

  /**
   * Checks, inside a transaction under the roots' lock (`locked`), that an item may be
   * called `name` in `folder` (null: the top level): the folder is live (404
   * `folder_not_found`), it is not `node` nor below it (400 `move_into_itself_warning`),
   * and the item's path and the longest path it brings along fit 4,096 UTF-8 bytes (400
   * `invalid_path`). `node` is the item when it exists already (move, copy, rename,
   * restore); a live one must itself be live. Answers the folder's path.
   *
   * The walk below a folder is skipped when its new path is no longer than its current one
   * (what lies below fitted before, so it fits still); a restored item is always walked,
   * since its folder may have moved deeper while it lay in the trash.
   */
  async assertPlaceable(repo: NodesRepo, folder: NodeRow | null, name: string, node?: NodeRow): Promise<string> {
    const chains = await chainsOf(repo, [...(folder ? [folder.id] : []), ...(node ? [node.id] : [])]);
    let folderPath = '/';
    if (folder) {
      const chain = chains.get(folder.id) ?? [];
      if (node && chain.some((link) => link.id === node.id)) throw badRequest('move_into_itself_warning');
      if (!isLiveChain(chain)) throw folderNotFound();
      folderPath = pathOfChain(chain);
    }
    const nodeChain = node ? (chains.get(node.id) ?? []) : [];
    if (node && node.trash_key === '' && !isLiveChain(nodeChain)) throw folderNotFound();
    const bytes = utf8Length(joinPath(folderPath, name));
    if (!pathFits(bytes)) throw pathTooLong();
    if (node?.folder === 1) {
      const restored = node.trash_key !== '';
      if ((restored || bytes > utf8Length(pathOfChain(nodeChain))) && !pathFits(bytes + (await repo.deepestBelow(node.id)))) throw pathTooLong();
    }
    return folderPath;
  }

  onFileAdded(listener: (file: NodeRow) => void): void {
    this.fileAddedListeners.push(listener);
  }

  /**
   * Calls `listener` with the items moved to the trash or restored from it, once committed
   * (their share links, and those of what lies under them, expire). A listener logs its own
   * failures; it never undoes the change.
   */
  onTrashMove(listener: (nodeIds: string[]) => Promise<void>): void {
    this.trashMoveListeners.push(listener);
  }

  /** Tells the trash-move listeners (trash and restore call it after their transaction). */
  async trashMoved(nodeIds: string[]): Promise<void> {
    if (nodeIds.length === 0) return;
    for (const listener of this.trashMoveListeners) await listener(nodeIds).catch(() => undefined);
  }

  async assertRoom(root: NodeRow, bytes: number): Promise<void> {
    const current = await this.repo.findById(root.root_id);
    if (bytes > 0 && current?.volume_limit != null && current.usage_bytes + bytes > current.volume_limit) throw volumeExceeded();
  }

  async *walk(folder: NodeRow, keep?: (children: NodeRow[]) => Promise<NodeRow[]>): AsyncIterable<WalkEntry> {
    yield* this.walkUnder(folder.id, '', keep);
  }

  roots(): Promise<NodeRow[]> {
    return this.repo.liveChildren('');
  }

  async ensureFolder(
    parent: NodeRow | null,
    name: string,
    options: { ownerId: string | null; backend?: 'server' | 'cloud'; mtime?: string },
  ): Promise<NodeRow> {
    const folderName = normalizeName(name);
    if (!isValidFileName(folderName)) throw badRequest('invalid_path');
    const existing = async () => {
      const found = await this.repo.findLiveChild(parent?.id ?? '', folderName);
      if (found && found.folder !== 1) throw conflict('file_exists_warning');
      return found;
    };
    const found = await existing();
    if (found) return found;
    const now = new Date().toISOString();
    const node: NodeRow = { ...blankNode(parent, now), name: folderName, owner_id: options.ownerId, mtime: options.mtime ?? now };
    if (!parent) node.backend = options.backend ?? 'server';
    try {
      if (!parent) await this.repo.insert([node]);
      else {
        await this.locked([parent], async (repo, [current]) => {
          await this.assertPlaceable(repo, current, folderName);
          await repo.insert([node]);
        });
      }
      return node;
    } catch (error) {
      // Another writer made it first: theirs is the folder.
      const raced = isUniqueViolation(error) ? await existing() : undefined;
      if (raced) return raced;
      throw error;
    }
  }

  // A folder's children are read a page at a time: a folder of 100,000 files held whole
  // took ~160 MiB of rows (measured on SQLite) for as long as it was walked.
  private async *walkUnder(folderId: string, prefix: string, keep?: (children: NodeRow[]) => Promise<NodeRow[]>): AsyncIterable<WalkEntry> {
    for (let after: NodeRow | undefined, page: NodeRow[] | null = null; page === null || page.length === WALK_PAGE;) {
      page = await this.repo.liveChildrenPage(folderId, after ? { folder: after.folder, name: after.name } : null, WALK_PAGE);
      after = page.at(-1);
      for (const node of keep ? await keep(page) : page) {
        const relativePath = prefix ? `${prefix}/${node.name}` : node.name;
        yield { node, relativePath };
        if (node.folder === 1) yield* this.walkUnder(node.id, relativePath, keep);
      }
    }
  }

  async touch(userId: string, node: NodeRow): Promise<void> {
    await this.repo.touch(userId, node.id, new Date().toISOString());
  }
}

/**
 * A new folder's columns under `parent` (null: a root folder, its own root), before its
 * own name and contents are set.
 */
export function blankNode(parent: NodeRow | null, now: string): NodeRow {
  const id = newId();
  return {
    id,
    parent_id: parent?.id ?? '',
    root_id: parent?.root_id ?? id,
    name: '',
    folder: 1,
    size: 0,
    mtime: now,
    content_hash: null,
    blob_key: null,
    backend: parent?.backend ?? 'server',
    owner_id: null,
    description: '',
    lock: 0,
    volume_limit: null,
    usage_bytes: 0,
    version_bytes: 0,
    trash_bytes: 0,
    content_by: null,
    trash_key: '',
    trashed_at: null,
    trashed_by: null,
    original_parent_id: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The name an item gets under `parentId`: `name` when free; taken, a 409
 * `file_exists_warning`, or with 'keep-both' the first free `name (n).ext`.
 */
export async function placeName(repo: NodesRepo, parentId: string, name: string, folder: boolean, onConflict: OnConflict): Promise<string> {
  if (!(await repo.takenNames(parentId, [name])).has(name)) return name;
  if (onConflict === 'error') throw conflict('file_exists_warning');
  const dot = folder ? -1 : name.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let start = 1; start <= KEEP_BOTH_TRIES; start += KEEP_BOTH_BATCH) {
    const candidates = Array.from({ length: KEEP_BOTH_BATCH }, (_, i) => numbered(base, extension, start + i));
    const taken = await repo.takenNames(parentId, candidates);
    const free = candidates.find((c) => !taken.has(c));
    if (free) return free;
  }
  throw conflict('file_exists_warning');
}

function numbered(base: string, extension: string, n: number): string {
  const suffix = ` (${n})${extension}`;
  return base.slice(0, Math.max(1, 255 - suffix.length)).trimEnd() + suffix;
}

/** Runs a write; a unique-name violation (two writers raced for one name) becomes 409 `file_exists_warning`. */
export async function uniqueNames<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('file_exists_warning');
    throw error;
  }
}

async function chainsOf(repo: NodesRepo, ids: string[]) {
  const byStart = new Map<string, { id: string; parent_id: string; name: string; trash_key: string; depth: number }[]>();
  for (const link of await repo.chains(ids)) {
    const chain = byStart.get(link.start_id) ?? [];
    chain.push(link);
    byStart.set(link.start_id, chain);
  }
  for (const chain of byStart.values()) chain.sort((a, b) => a.depth - b.depth);
  return byStart;
}

/** True when a node's way up (itself first) reaches the top with nothing trashed on it. */
function isLiveChain(chain: { parent_id: string; trash_key: string }[]): boolean {
  return chain.length > 0 && chain.every((link) => link.trash_key === '') && chain.at(-1)!.parent_id === '';
}

function pathOfChain(chain: { name: string }[]): string {
  return `/${chain
    .map((link) => link.name)
    .reverse()
    .join('/')}`;
}
