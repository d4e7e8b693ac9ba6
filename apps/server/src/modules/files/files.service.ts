import {
  type Backend,
  type FileEntry,
  type ListResponse,
  type PermissionType,
  type TreeNode,
  checkFolderName,
  joinPath,
  normalizeName,
  splitPath,
} from '@bogwan/contracts';
import { badRequest } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { UserRow } from '../users/users.repo.js';
import type { AccessService } from './access.service.js';
import { nodeTarget } from './file-audit.js';
import { type FileTreeService, blankNode, folderNotFound, placeName, uniqueNames } from './file-tree.js';
import { isHiddenRoot, toFileEntry, toTreeNode } from './files.presenter.js';
import type { ListSort } from './nodes.repo.js';
import type { NodeRow, WriteLocks } from './ports.js';

/** Who calls, for permission checks and the activity log. */
export interface Caller {
  user: UserRow;
  ip: string | null;
}

/** Recent and Starred read this many rows more than asked, since some may be trashed or unreadable. */
const MARKED_OVERFETCH = 2;

/** Browsing and simple changes: list, tree, create folder, star, recent, starred, lock. */
export class FilesService {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly audit: AuditRecorder,
    /** WebDAV locks: a new folder in a locked folder is refused. */
    private readonly locks: WriteLocks,
  ) {}

  private get repo() {
    return this.tree.repo;
  }

  /** Live root folders the user may READ, without those the spec hides (`_deleted_`). */
  async visibleRoots(user: UserRow): Promise<NodeRow[]> {
    const roots = (await this.repo.liveRoots()).filter((root) => !isHiddenRoot(root));
    return this.access.filter(user, roots, 'READ');
  }

  async list(user: UserRow, query: { path: string; skip: number; limit: number; sort: ListSort }): Promise<ListResponse> {
    if (query.path === '/') return this.listRoots(user, query);
    const folder = await this.access.require(user, query.path, 'READ');
    if (folder.folder !== 1) throw folderNotFound();
    const { total, folders } = await this.repo.countLiveChildren(folder.id);
    const rows = await this.repo.listLiveChildren(folder.id, user.id, query, folders);
    return { items: rows.map((row) => toFileEntry(row, joinPath(query.path, row.name), row.starred_by !== null)), total };
  }

  private async listRoots(user: UserRow, query: { skip: number; limit: number; sort: ListSort }): Promise<ListResponse> {
    const roots = await this.visibleRoots(user);
    const desc = query.sort.startsWith('-');
    const key = query.sort.replace('-', '');
    const value = (n: NodeRow) => (key === 'mtime' ? n.mtime : key === 'size' ? 0 : n.name);
    roots.sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : a.name.localeCompare(b.name)) * (desc ? -1 : 1));
    const page = roots.slice(query.skip, query.skip + query.limit);
    const starred = await this.repo.starredAmong(
      user.id,
      page.map((r) => r.id),
    );
    return { items: page.map((r) => toFileEntry(r, joinPath('/', r.name), starred.has(r.id))), total: roots.length };
  }

  /**
   * The navigation tree: the root folders, and when a path is given, every folder along
   * it expanded with its sub-folders (the folder at the path itself included).
   */
  async folderTree(user: UserRow, path: string | undefined): Promise<TreeNode[]> {
    const roots = await this.visibleRoots(user);
    const along: NodeRow[] = [];
    if (path && path !== '/') {
      const target = await this.access.require(user, path, 'READ');
      if (target.folder !== 1) throw folderNotFound();
      let parentId = '';
      for (const segment of splitPath(path) ?? []) {
        const node = await this.repo.findLiveChild(parentId, segment);
        if (!node) throw folderNotFound();
        along.push(node);
        parentId = node.id;
      }
    }
    const expanded = new Set(along.map((n) => n.id));
    const below = await this.access.filter(user, await this.repo.liveFoldersUnder([...expanded]), 'READ');
    const byParent = new Map<string, NodeRow[]>();
    for (const folder of below) byParent.set(folder.parent_id, [...(byParent.get(folder.parent_id) ?? []), folder]);
    const build = (nodes: NodeRow[], folderPath: string): TreeNode[] =>
      nodes.map((node) => {
        const nodePath = joinPath(folderPath, node.name);
        const open = expanded.has(node.id);
        return toTreeNode(node, nodePath, open ? build(byParent.get(node.id) ?? [], nodePath) : [], open);
      });
    return build(roots, '/');
  }

  /** Creates a folder; at `/` a root folder (administrators), bound to `backend`. */
  async createFolder(caller: Caller, body: { name: string; path: string; backend?: Backend }): Promise<FileEntry> {
    if (checkFolderName(body.name)) throw badRequest('rules_folder');
    const name = normalizeName(body.name).trim();
    const now = new Date().toISOString();
    let node: NodeRow;
    let path: string;
    if (body.path === '/') {
      await this.access.requireOn(caller.user, null, 'CREATE');
      node = { ...blankNode(null, now), name, backend: body.backend ?? 'server', owner_id: caller.user.id };
      path = joinPath('/', name);
      const rootPath = path;
      await uniqueNames(() =>
        this.repo.transaction(async (repo) => {
          await placeName(repo, '', name, true, 'error');
          await repo.insert([node]);
          await this.audit.record({ action: 'file.mkdir', target: nodeTarget(node, rootPath), params: { root: true, backend: node.backend } }, repo.trx);
        }),
      );
    } else {
      const parent = await this.access.require(caller.user, body.path, 'CREATE');
      if (parent.folder !== 1) throw folderNotFound();
      // A new member changes its folder: as WebDAV MKCOL, the folder's locks and a lock on the name count.
      await this.locks.assertCanWrite(caller.user, [
        { path: joinPath(body.path, name), deep: false },
        { path: body.path, deep: false },
      ]);
      node = { ...blankNode(parent, now), name, owner_id: caller.user.id };
      path = await uniqueNames(() =>
        this.tree.locked([parent], async (repo, [current]) => {
          const folderPath = await this.tree.assertPlaceable(repo, current, name);
          await placeName(repo, current.id, name, true, 'error');
          await repo.insert([node]);
          const created = joinPath(folderPath, name);
          await this.audit.record({ action: 'file.mkdir', target: nodeTarget(node, created) }, repo.trx);
          return created;
        }),
      );
    }
    return toFileEntry(node, path, false);
  }

  async star(caller: Caller, path: string, starred: boolean): Promise<void> {
    const node = await this.access.require(caller.user, path, 'READ');
    await this.repo.setStar(caller.user.id, node.id, starred);
  }

  /** Files the user opened or added lately, newest first; only live ones the user may still read. */
  async recent(user: UserRow, limit: number): Promise<FileEntry[]> {
    return this.present(user, await this.repo.recent(user.id, limit * MARKED_OVERFETCH), limit);
  }

  /** The user's starred files and folders, newest star first; only live ones the user may still read. */
  async starred(user: UserRow, limit: number): Promise<FileEntry[]> {
    return this.present(user, await this.repo.starred(user.id, limit * MARKED_OVERFETCH), limit);
  }

  private async present(user: UserRow, rows: NodeRow[], limit: number): Promise<FileEntry[]> {
    const paths = await this.tree.livePaths(rows.map((r) => r.id));
    const readable = (await this.access.filter(user, rows, 'READ')).filter((r) => paths.has(r.id)).slice(0, limit);
    const starred = await this.repo.starredAmong(
      user.id,
      readable.map((r) => r.id),
    );
    return readable.map((r) => toFileEntry(r, paths.get(r.id)!, starred.has(r.id)));
  }

  /** Sets or clears a folder's lock flag (LOCK or UNLOCK permission). */
  async lock(caller: Caller, path: string, lock: boolean): Promise<FileEntry> {
    const node = await this.access.require(caller.user, path, lock ? 'LOCK' : 'UNLOCK');
    if (node.folder !== 1) throw badRequest();
    const now = new Date().toISOString();
    await this.repo.transaction(async (repo) => {
      await repo.update(node.id, { lock: lock ? 1 : 0, updated_at: now });
      await this.audit.record({ action: 'file.lock', target: nodeTarget(node, path), params: { locked: lock } }, repo.trx);
    });
    const starred = await this.repo.starredAmong(caller.user.id, [node.id]);
    return toFileEntry({ ...node, lock: lock ? 1 : 0 }, path, starred.has(node.id));
  }

  permissionsAt(user: UserRow, path: string): Promise<PermissionType[]> {
    return this.access.permissionsAt(user, path);
  }
}
