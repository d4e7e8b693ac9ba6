import { type FileEntry, type PermissionType, checkFolderName, isInside, isValidFileName, joinPath, normalizeName } from '@bogwan/contracts';
import { AppError, badRequest, conflict, forbidden } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { UserRow } from '../users/users.repo.js';
import { ADMIN_LEVEL, type AccessService } from './access.service.js';
import { versionBytesOf, versionsIn } from '../versions/version-keeper.js';
import { nodeTarget } from './file-audit.js';
import { type FileTreeService, type OnConflict, folderNotFound, placeName, uniqueNames, volumeExceeded } from './file-tree.js';
import type { Caller } from './files.service.js';
import { toFileEntry } from './files.presenter.js';
import type { NodesRepo } from './nodes.repo.js';
import type { LockedWrite, NodeRow, WriteLocks } from './ports.js';
import type { WebhookEmitter } from '../webhooks/ports.js';

/** What moves need to know of secure folders (the sharing module provides it). */
export interface SecureFolderLookup {
  lockAbove(node: NodeRow): Promise<string | undefined>;
  covered(nodeId: string, approved: Set<string>): Promise<boolean>;
}

export interface MoveRequest {
  path: string;
  name: string;
  newPath: string;
  onConflict: OnConflict;
  /** The name the item takes in `newPath` (WebDAV MOVE and COPY name it); its own name when absent. */
  newName?: string;
}

/** Bytes of the files among `rows` (folders hold none of their own). */
export function fileBytes(rows: NodeRow[]): number {
  return rows.reduce((sum, row) => sum + (row.folder === 1 ? 0 : row.size), 0);
}

/** Bytes of the files of a subtree (`rows`, below `topId`) that lie in the trash: trashed, or under a trashed folder. */
export function trashedFileBytes(rows: NodeRow[], topId: string): number {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const inTrash = (row: NodeRow | undefined): boolean => {
    for (let at = row; at; at = at.id === topId ? undefined : byId.get(at.parent_id)) if (at.trash_key !== '') return true;
    return false;
  };
  return rows.reduce((sum, row) => sum + (row.folder === 0 && inTrash(row) ? row.size : 0), 0);
}

/**
 * Changes to where items live: move, copy, rename, trash. Move and rename touch
 * metadata only; copy adds references to the same blobs. Usage moves with the bytes, in
 * the same transaction as the rows.
 */
export class MovesService {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly audit: AuditRecorder,
    /** Outgoing webhooks, told of every move to the trash (a user's delete). */
    private readonly hooks: WebhookEmitter,
    /** Secure (locked) folders: bytes leave one only through an approved request. Required: the check never skips. */
    private readonly secure: SecureFolderLookup,
    /** WebDAV locks: changes to a locked item (or into a locked folder) are refused; a moved item's locks end. */
    private readonly locks: WriteLocks,
  ) {}

  private get repo() {
    return this.tree.repo;
  }

  async move(caller: Caller, body: MoveRequest): Promise<FileEntry> {
    const { source, target } = await this.prepare(caller.user, body, 'MOVE');
    if (source.parent_id === target.id && (body.newName ?? source.name) === source.name)
      return this.entry(caller.user, source, joinPath(body.newPath, source.name));
    const from = joinPath(body.path, body.name);
    await this.locks.assertCanWrite(caller.user, [...removal(from), ...addition(joinPath(body.newPath, body.newName ?? source.name), body.newPath)]);
    const { moved, to } = await uniqueNames(() =>
      this.tree.locked([source, target], async (repo, [src, tgt]) => {
        const { name, folderPath } = await this.placeUnder(repo, src, tgt, body.onConflict, body.newName);
        if (src.root_id !== tgt.root_id) {
          // Trashed items inside go along: their bytes still count where they live.
          // So do the versions of its files: the parts of the usage move with them.
          const rows = await repo.subtree(src.id, false);
          const ids = rows.map((r) => r.id);
          const versions = await versionBytesOf(repo, ids);
          const trash = trashedFileBytes(rows, src.id);
          const bytes = fileBytes(rows) + versions;
          if (!(await repo.addUsage(tgt.root_id, bytes, true))) throw volumeExceeded();
          await repo.addUsage(src.root_id, -bytes, false);
          await repo.addBreakdown(tgt.root_id, { versions, trash });
          await repo.addBreakdown(src.root_id, { versions: -versions, trash: -trash });
          await repo.setRoot(ids, tgt.root_id);
          await versionsIn(repo).setRoot(ids, tgt.root_id);
        }
        const updated_at = new Date().toISOString();
        await repo.update(src.id, { parent_id: tgt.id, name, updated_at });
        const to = joinPath(folderPath, name);
        await this.audit.record({ action: 'file.move', target: nodeTarget(src, joinPath(body.path, body.name)), params: { to } }, repo.trx);
        return { moved: { ...src, parent_id: tgt.id, root_id: tgt.root_id, name, updated_at }, to };
      }),
    );
    await this.locks.releaseUnder(from);
    return this.entry(caller.user, moved, to);
  }

  async copy(caller: Caller, body: MoveRequest): Promise<FileEntry> {
    const { source, target } = await this.prepare(caller.user, body, 'COPY');
    await this.locks.assertCanWrite(caller.user, addition(joinPath(body.newPath, body.newName ?? source.name), body.newPath));
    const { copy, to } = await uniqueNames(() =>
      this.tree.locked([source, target], async (repo, [src, tgt]) => {
        const { name, folderPath } = await this.placeUnder(repo, src, tgt, body.onConflict, body.newName);
        const rows = await repo.subtree(src.id, true);
        if (!(await repo.addUsage(tgt.root_id, fileBytes(rows), true))) throw volumeExceeded();
        const copies = copyRows(rows, src.id, tgt, name, caller.user.id);
        await addBlobReferences(repo, copies);
        await repo.insert(copies);
        const copy = copies.find((c) => c.parent_id === tgt.id)!;
        const to = joinPath(folderPath, name);
        await this.audit.record(
          { action: 'file.copy', target: nodeTarget(src, joinPath(body.path, body.name)), params: { to, copyId: copy.id, items: copies.length } },
          repo.trx,
        );
        return { copy, to };
      }),
    );
    return toFileEntry(copy, to, false);
  }

  async rename(caller: Caller, body: { path: string; name: string; newName: string }): Promise<FileEntry> {
    const from = itemPath(body.path, body.name);
    const node = await this.access.require(caller.user, from, 'UPDATE');
    if (node.parent_id === '' && caller.user.role_level < ADMIN_LEVEL) throw await this.refused('UPDATE', node, from);
    let name = normalizeName(body.newName);
    if (node.folder === 1) {
      if (checkFolderName(name)) throw badRequest('rules_folder');
      name = name.trim();
    } else if (!isValidFileName(name)) {
      throw badRequest('invalid_path');
    }
    if (name === node.name) return this.entry(caller.user, node, joinPath(body.path, name));
    await this.locks.assertCanWrite(caller.user, [...removal(from), { path: joinPath(body.path, name), deep: true }]);
    const updated_at = new Date().toISOString();
    const to = await uniqueNames(() =>
      this.tree.locked([node], async (repo, [current]) => {
        if (current.trash_key !== '') throw folderNotFound();
        const parent = current.parent_id === '' ? null : ((await repo.findById(current.parent_id)) ?? null);
        const folderPath = await this.tree.assertPlaceable(repo, parent, name, current);
        await placeName(repo, current.parent_id, name, current.folder === 1, 'error');
        await repo.update(current.id, { name, updated_at });
        const renamed = joinPath(folderPath, name);
        await this.audit.record({ action: 'file.rename', target: nodeTarget(current, from), params: { to: renamed, name } }, repo.trx);
        return renamed;
      }),
    );
    await this.locks.releaseUnder(from);
    return this.entry(caller.user, { ...node, name, updated_at }, to);
  }

  /**
   * Moves items to the trash: each keeps its place (parent) and its children, and stops
   * blocking its name. Paths inside another listed path go along with it. Answers the
   * trash ids.
   */
  async trash(caller: Caller, paths: string[]): Promise<string[]> {
    const distinct = [...new Set(paths)].sort();
    const tops = distinct.filter((p) => !distinct.some((other) => other !== p && isInside(p, other)));
    const nodes: NodeRow[] = [];
    for (const path of tops) {
      const node = await this.access.require(caller.user, path, 'TRASH');
      if (node.parent_id === '' && caller.user.role_level < ADMIN_LEVEL) throw await this.refused('TRASH', node, path);
      nodes.push(node);
    }
    await this.locks.assertCanWrite(caller.user, tops.flatMap(removal));
    const trashed_at = new Date().toISOString();
    await this.repo.transaction(async (repo) => {
      // The roots' lock: what an item brings into the trash is counted once, as it is now.
      await repo.lockRoots(nodes.map((node) => node.root_id));
      for (const node of nodes) {
        const live = await repo.subtree(node.id, true);
        if (node.parent_id !== '' && live.find((row) => row.id === node.id)?.trash_key === '')
          await repo.addBreakdown(node.root_id, { trash: fileBytes(live) });
        await repo.update(node.id, { trash_key: node.id, trashed_at, trashed_by: caller.user.id, original_parent_id: node.parent_id });
      }
      for (const [i, node] of nodes.entries()) await this.audit.record({ action: 'file.trash', target: nodeTarget(node, tops[i]!) }, repo.trx);
    });
    await this.tree.trashMoved(nodes.map((n) => n.id));
    this.hooks.emit('delete', { paths: tops, userId: caller.user.id });
    return nodes.map((n) => n.id);
  }

  /**
   * The checks shared by move and copy: the source exists and may be moved (or copied),
   * the target folder exists and takes new items, lies outside the source, and keeps its
   * bytes on the same backend (moving bytes between backends is not done here).
   */
  private async prepare(user: UserRow, body: MoveRequest, permission: PermissionType) {
    const sourcePath = itemPath(body.path, body.name);
    const source = await this.access.require(user, sourcePath, permission);
    // Root folders stay at the top: they carry the backend and the volume limit.
    if (source.parent_id === '' || body.newPath === '/') throw badRequest();
    if (isInside(body.newPath, sourcePath)) throw badRequest('move_into_itself_warning');
    const target = await this.access.require(user, body.newPath, 'CREATE');
    if (target.folder !== 1) throw folderNotFound();
    if (target.backend !== source.backend) throw conflict('backend_mismatch_warning');
    try {
      await this.assertStaysSecure(source, target);
    } catch (error) {
      // Bytes kept inside a locked folder: a refused file access like any other, recorded.
      if (error instanceof AppError) await this.access.recordRefusal(error, permission, source, sourcePath);
      throw error;
    }
    return { source, target };
  }

  /**
   * Under the roots' lock, with `source` and `target` as they are now: both live, the target
   * not inside the source, on one backend; answers the name the item gets there (a clash
   * per `onConflict`) and the target's path, the whole new path within 4,096 bytes.
   */
  private async placeUnder(repo: NodesRepo, source: NodeRow, target: NodeRow, onConflict: OnConflict, newName?: string) {
    if (source.trash_key !== '') throw folderNotFound();
    if (target.backend !== source.backend) throw conflict('backend_mismatch_warning');
    const wanted = newName === undefined ? source.name : normalizeName(newName);
    if (newName !== undefined && (source.folder === 1 ? checkFolderName(wanted) !== null : !isValidFileName(wanted))) throw badRequest('invalid_path');
    const name = await placeName(repo, target.id, wanted, source.folder === 1, onConflict);
    const folderPath = await this.tree.assertPlaceable(repo, target, name, source);
    return { name, folderPath };
  }

  /**
   * Bytes inside a locked folder leave it only through an approved request: copying or moving
   * an item out of its locked folder is refused (403 `secure_approval_required`). A locked
   * folder itself, and folders holding locked folders, keep their lock flags when moved or
   * copied, so they may go anywhere.
   */
  private async assertStaysSecure(source: NodeRow, target: NodeRow): Promise<void> {
    if (source.lock === 1) return;
    const lock = await this.secure.lockAbove(source);
    if (lock && !(await this.secure.covered(target.id, new Set([lock])))) throw forbidden('secure_approval_required');
  }

  /** A root folder is renamed or trashed by administrators only: the 403, recorded like the permission check's. */
  private async refused(permission: PermissionType, node: NodeRow, path: string): Promise<AppError> {
    const refusal = forbidden();
    await this.access.recordRefusal(refusal, permission, node, path);
    return refusal;
  }

  private async entry(user: UserRow, node: NodeRow, path: string): Promise<FileEntry> {
    const starred = await this.repo.starredAmong(user.id, [node.id]);
    return toFileEntry(node, path, starred.has(node.id));
  }
}

/** The path of item `name` in folder `path`; 400 `invalid_path` when the name breaks the file-name rule. */
export function itemPath(path: string, name: string): string {
  if (!isValidFileName(name)) throw badRequest('invalid_path');
  return joinPath(path, name);
}

/**
 * What taking the item at `path` away writes, as a WebDAV DELETE or the source of a MOVE:
 * the item with everything under it, and its folder (which loses a member).
 */
function removal(path: string): LockedWrite[] {
  const item = path.replace(/\/+$/, '');
  return [
    { path: item, deep: true },
    { path: item.slice(0, item.lastIndexOf('/')) || '/', deep: false },
  ];
}

/** What placing an item at `path` in `folder` writes, as the destination of a WebDAV COPY or MOVE. */
function addition(path: string, folder: string): LockedWrite[] {
  return [
    { path, deep: true },
    { path: folder, deep: false },
  ];
}

/** New rows for a copied subtree: fresh ids, the top one renamed into `target`, owned by the copier. */
function copyRows(rows: NodeRow[], sourceId: string, target: NodeRow, name: string, ownerId: string): NodeRow[] {
  const ids = new Map(rows.map((row) => [row.id, newId()]));
  const now = new Date().toISOString();
  return rows.map((row) => ({
    ...row,
    id: ids.get(row.id)!,
    parent_id: row.id === sourceId ? target.id : ids.get(row.parent_id)!,
    root_id: target.root_id,
    name: row.id === sourceId ? name : row.name,
    owner_id: ownerId,
    volume_limit: null,
    usage_bytes: 0,
    trash_key: '',
    trashed_at: null,
    trashed_by: null,
    original_parent_id: null,
    created_at: now,
    updated_at: now,
  }));
}

/** One more reference per copied file to the blob it shares. */
async function addBlobReferences(repo: NodesRepo, copies: NodeRow[]): Promise<void> {
  for (const { backend, hash, size, count } of blobReferences(copies)) await repo.addBlobRefs(backend, hash, size, count);
}

/**
 * The references the files among `rows` hold, one entry per blob, in key order: writers
 * that change several blobs' counts lock their rows in one order, so two of them sharing
 * blobs cannot deadlock.
 */
export function blobReferences(rows: NodeRow[]): { backend: string; hash: string; size: number; count: number }[] {
  const counts = new Map<string, { backend: string; hash: string; size: number; count: number }>();
  for (const row of rows) {
    if (row.folder === 1 || !row.content_hash) continue;
    const key = `${row.backend}\u0000${row.content_hash}`;
    const entry = counts.get(key) ?? { backend: row.backend, hash: row.content_hash, size: row.size, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
}
