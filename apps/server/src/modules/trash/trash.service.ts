import { type TrashListResponse, joinPath } from '@bogwan/contracts';
import { forbidden, notFound } from '../../errors.js';
import { type AuditActor, SYSTEM_ACTOR } from '../audit/audit-context.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AuditParams } from '@bogwan/contracts';
import { ADMIN_LEVEL, type AccessService } from '../files/access.service.js';
import { type FileTreeService, folderNotFound, placeName, uniqueNames, volumeExceeded } from '../files/file-tree.js';
import type { Caller } from '../files/files.service.js';
import { blobReferences, fileBytes } from '../files/moves.service.js';
import { nodeTarget } from '../files/file-audit.js';
import { dropVersionsOf } from '../versions/version-keeper.js';
import type { NodeRow, WriteLocks } from '../files/ports.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';

/**
 * The trash: administrators see and purge everything; a USER sees and restores what
 * they trashed. Purging removes the rows, releases blob references and the root's
 * usage; blobs left without references are the orphan collector's to delete.
 */
export class TrashService {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly users: UsersRepo,
    private readonly audit: AuditRecorder,
    /** WebDAV locks: an item does not come back onto a locked name or into a locked folder. */
    private readonly locks: WriteLocks,
  ) {}

  private get repo() {
    return this.tree.repo;
  }

  /** Trashed items, newest first: everyone's for an administrator, else (and with `mine`) what the user trashed. */
  async list(user: UserRow, page: { skip: number; limit: number }, mine = false): Promise<TrashListResponse> {
    const everyone = user.role_level >= ADMIN_LEVEL && !mine;
    const { rows, total } = await this.repo.trashed({ ...page, trashedBy: everyone ? undefined : user.id });
    const folders = await this.tree.anyPaths([...new Set(rows.map((r) => r.parent_id).filter((id) => id !== ''))]);
    const trashers = new Map<string, UserRow | undefined>();
    for (const id of new Set(rows.map((r) => r.trashed_by).filter((id): id is string => id !== null))) {
      trashers.set(id, await this.users.findById(id));
    }
    const items = rows.map((row) => {
      const folder = row.parent_id === '' ? '/' : folders.get(row.parent_id);
      const by = row.trashed_by ? trashers.get(row.trashed_by) : undefined;
      return {
        _id: row.id,
        name: row.name,
        folder: row.folder === 1,
        size: row.folder === 1 ? 0 : row.size,
        path: folder === undefined ? null : joinPath(folder, row.name),
        trashedAt: row.trashed_at ?? row.updated_at,
        trashedBy: by ? { _id: by.id, name: by.name, email: by.email } : null,
      };
    });
    return { items, total };
  }

  /**
   * Puts items back where they were, all or none: 404 when an id is not in the caller's
   * trash, 404 `folder_not_found` when its folder is gone or trashed, 409
   * `file_exists_warning` when its name is taken meanwhile, 413 `volume_exceeded_warning`
   * when its root folder is over its volume limit.
   */
  async restore(caller: Caller, ids: string[]): Promise<number> {
    const admin = caller.user.role_level >= ADMIN_LEVEL;
    // Checks first, outside the transaction (the permission check reads the settings).
    const items: { node: NodeRow; path: string }[] = [];
    for (const id of new Set(ids)) {
      const node = await this.repo.findById(id);
      if (!node || node.trash_key === '' || (!admin && node.trashed_by !== caller.user.id)) throw notFound();
      const folder = await this.folderToRestoreInto(caller.user, node);
      items.push({ node, path: joinPath(folder, node.name) });
      // Coming back adds a member to its folder, as a WebDAV COPY there would.
      await this.locks.assertCanWrite(caller.user, [
        { path: joinPath(folder, node.name), deep: true },
        { path: folder, deep: false },
      ]);
    }
    // Under the lock of the items' roots: their folders stay where they are until this
    // commits, and each item's deepest path is checked against where its folder is now.
    await uniqueNames(() =>
      this.tree.locked(
        items.map(({ node }) => node),
        async (repo, current) => {
          for (const [i, node] of current.entries()) {
            if (node.trash_key === '') throw notFound();
            // A root over its volume limit (lowered since) takes nothing back until it is under it again.
            const root = node.parent_id === '' ? node : await repo.findById(node.root_id);
            if (root && root.volume_limit !== null && root.usage_bytes > root.volume_limit) throw volumeExceeded();
            const parent = node.parent_id === '' ? null : ((await repo.findById(node.parent_id)) ?? null);
            if (node.parent_id !== '' && !parent) throw folderNotFound();
            await this.tree.assertPlaceable(repo, parent, node.name, node);
            await placeName(repo, node.parent_id, node.name, node.folder === 1, 'error');
            // What comes back is live again: it leaves the trash part of the root's usage.
            if (node.parent_id !== '') await repo.addBreakdown(node.root_id, { trash: -fileBytes(await repo.subtree(node.id, true)) });
            await repo.update(node.id, { trash_key: '', trashed_at: null, trashed_by: null, original_parent_id: null });
            await this.audit.record({ action: 'file.restore', target: nodeTarget(node, items[i]!.path) }, repo.trx);
          }
        },
      ),
    );
    await this.tree.trashMoved(items.map(({ node }) => node.id));
    return items.length;
  }

  /** The live folder a trashed item goes back to, checked like trashing it again. */
  private async folderToRestoreInto(user: UserRow, node: NodeRow): Promise<string> {
    if (node.parent_id === '') {
      if (user.role_level < ADMIN_LEVEL) throw forbidden();
      return '/';
    }
    const parent = await this.repo.findById(node.parent_id);
    const path = parent ? (await this.tree.livePaths([parent.id])).get(parent.id) : undefined;
    if (!parent || path === undefined) throw folderNotFound();
    await this.access.requireOn(user, parent, 'TRASH');
    return path;
  }

  /** Deletes one trashed item for good (administrators). */
  async purge(caller: Caller, id: string): Promise<void> {
    const node = await this.repo.findById(id);
    if (!node || node.trash_key === '') throw notFound();
    await this.purgeNode(node);
  }

  /** Empties the trash (administrators); answers how many trash entries went. */
  async purgeAll(_caller: Caller): Promise<number> {
    let count = 0;
    for (const id of await this.repo.trashedIds()) {
      // An entry inside another one may have gone with it already.
      const node = await this.repo.findById(id);
      if (!node || node.trash_key === '') continue;
      await this.purgeNode(node);
      count += 1;
    }
    return count;
  }

  /**
   * Deletes for good what was trashed before `before` (the retention rule, run by the
   * housekeeping job); answers how many trash entries went.
   */
  async expire(before: string, days: number): Promise<number> {
    let count = 0;
    for (const id of await this.repo.trashedBefore(before)) {
      const node = await this.repo.findById(id);
      if (!node || node.trash_key === '' || !node.trashed_at || node.trashed_at >= before) continue;
      await this.purgeNode(node, SYSTEM_ACTOR, { retentionDays: days });
      count += 1;
    }
    return count;
  }

  /**
   * Deletes a trashed item and what lies under it for good; its `file.purge` record (with the
   * path it had) commits with it. `actor`: the request's account unless given (the retention job).
   */
  private async purgeNode(node: NodeRow, actor?: AuditActor, params: AuditParams = {}): Promise<void> {
    const path = (await this.tree.anyPaths([node.id])).get(node.id) ?? node.name;
    await this.repo.transaction(async (repo) => {
      // The root's lock first, then the blob rows in key order: the order uploads and copies
      // take them in, so a purge and an upload sharing a blob cannot deadlock.
      await repo.lockRoots([node.root_id]);
      const rows = await repo.subtree(node.id, false);
      for (const ref of blobReferences(rows)) await repo.releaseBlobRefs(ref.backend, ref.hash, ref.count);
      if (node.parent_id !== '') {
        await repo.addUsage(node.root_id, -fileBytes(rows), false);
        await repo.addBreakdown(node.root_id, { trash: -fileBytes(rows) });
      }
      // The files' versions go with them (their references and their part of the usage).
      await dropVersionsOf(
        repo,
        rows.filter((r) => r.folder === 0).map((r) => r.id),
      );
      await repo.delete(rows.map((r) => r.id));
      const what = { ...params, folder: node.folder === 1, items: rows.length, size: fileBytes(rows) };
      await this.audit.record({ action: 'file.purge', target: nodeTarget(node, path), params: what, ...(actor ? { actor } : {}) }, repo.trx);
    });
  }
}
