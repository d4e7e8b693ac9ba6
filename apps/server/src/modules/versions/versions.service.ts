import {
  type FileEntry,
  type FileVersion,
  type FileVersionList,
  type RootVersions,
  type RootVersionsRequest,
  type UploadCheckItem,
  type VersionSettings,
  normalizeName,
  splitPath,
} from '@bogwan/contracts';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AccessService } from '../files/access.service.js';
import { nodeTarget } from '../files/file-audit.js';
import { type FileTreeService, placeName } from '../files/file-tree.js';
import type { Caller } from '../files/files.service.js';
import { toFileEntry } from '../files/files.presenter.js';
import type { NodeRow, WriteLocks } from '../files/ports.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import { dropVersions, versionsIn } from './version-keeper.js';
import { DEFAULT_VERSION_SETTINGS, effectivePolicy, VERSION_SETTING, type VersionRow, type VersionsRepo } from './versions.repo.js';
import type { SettingsRepo } from '../settings/settings.repo.js';

const versionNotFound = () => notFound('version_not_found');

/**
 * A file's versions (list, restore, delete), the retention settings, and the conflict check
 * of an upload drop. Every call passes the files access check on the file itself: listing
 * needs DOWNLOAD (as the file's download does), restoring UPDATE, deleting DELETE.
 */
export class VersionsService {
  constructor(
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly repo: VersionsRepo,
    private readonly users: UsersRepo,
    private readonly settings: SettingsRepo,
    private readonly audit: AuditRecorder,
    /** WebDAV locks: a restore writes the file, as an upload over it would. */
    private readonly locks: WriteLocks,
  ) {}

  /** The file at `path` when the user holds `permission` on it (a folder is 400 `invalid_path`). */
  async file(user: UserRow, path: string, permission: 'DOWNLOAD' | 'UPDATE' | 'DELETE'): Promise<NodeRow> {
    const node = await this.access.require(user, path, permission);
    if (node.folder === 1) throw badRequest('invalid_path');
    return node;
  }

  /** The current content first, then the versions, newest first. */
  async list(user: UserRow, path: string): Promise<FileVersionList> {
    const node = await this.file(user, path, 'DOWNLOAD');
    const versions = await this.repo.listOf(node.id);
    const authorIds = [...new Set([node.content_by ?? node.owner_id, ...versions.map((v) => v.author_id)].filter((id): id is string => id !== null))];
    const authors = new Map((await this.users.findByIds(authorIds)).map((u) => [u.id, { _id: u.id, name: u.name }]));
    const author = (id: string | null) => (id ? (authors.get(id) ?? null) : null);
    const current: FileVersion = {
      _id: node.id,
      size: node.size,
      hash: node.content_hash ?? '',
      createdAt: node.mtime,
      author: author(node.content_by ?? node.owner_id),
      current: true,
    };
    return {
      items: [
        current,
        ...versions.map((v) => ({
          _id: v.id,
          size: Number(v.size),
          hash: v.content_hash,
          createdAt: v.written_at,
          author: author(v.author_id),
          current: false,
        })),
      ],
    };
  }

  /** One version of the file (404 `version_not_found` when it is not one of this file's). */
  async versionOf(node: NodeRow, id: string): Promise<VersionRow> {
    const version = await this.repo.find(id);
    if (!version || version.node_id !== node.id) throw versionNotFound();
    return version;
  }

  /**
   * Makes a version the file's content again: the current content becomes a version in
   * turn (one replace, counted against the root's volume limit: 413, nothing changed).
   */
  async restore(caller: Caller, path: string, id: string): Promise<FileEntry> {
    const node = await this.file(caller.user, path, 'UPDATE');
    if (id === node.id) return toFileEntry(node, path, false);
    const version = await this.versionOf(node, id);
    await this.locks.assertCanWrite(caller.user, [{ path, deep: false }]);
    const audit = {
      recorder: this.audit,
      entry: (updated: NodeRow, at: string) => ({
        action: 'file.version_restore' as const,
        target: nodeTarget(updated, at),
        params: { version: version.id, size: Number(version.size) },
      }),
    };
    const content = { size: Number(version.size), contentHash: version.content_hash, blobKey: version.blob_key, backend: version.backend };
    const updated = await this.tree.replaceFile(node, content, { audit, by: caller.user.id });
    return toFileEntry(updated, path, false);
  }

  /** Deletes one version for good (the current content is refused: 409 `version_current_undeletable`). */
  async delete(caller: Caller, path: string, id: string): Promise<void> {
    const node = await this.file(caller.user, path, 'DELETE');
    if (id === node.id) throw conflict('version_current_undeletable');
    await this.versionOf(node, id);
    await this.tree.locked([node], async (repo, [current]) => {
      // Looked up again under the lock: a prune or another delete may have taken it.
      const version = await versionsIn(repo).find(id);
      if (!version || version.node_id !== current.id) throw versionNotFound();
      await dropVersions(repo, [version]);
      await this.audit.record(
        { action: 'file.version_delete', target: nodeTarget(current, path), params: { version: id, size: Number(version.size) } },
        repo.trx,
      );
    });
  }

  async settingsGet(): Promise<VersionSettings> {
    return (await this.settings.get<VersionSettings>(VERSION_SETTING)) ?? DEFAULT_VERSION_SETTINGS;
  }

  async settingsSet(wanted: VersionSettings): Promise<VersionSettings> {
    const before = await this.settingsGet();
    await this.settings.set(VERSION_SETTING, wanted);
    await this.audit.record({
      action: 'settings.change',
      target: { kind: 'setting', id: VERSION_SETTING },
      params: { from: JSON.stringify(before), to: JSON.stringify(wanted) },
    });
    return wanted;
  }

  /** A root folder's own retention (SETTING on the root, as its volume limit). */
  async rootPolicy(user: UserRow, path: string): Promise<RootVersions> {
    const root = await this.rootAt(user, path);
    const policy = await this.repo.policyOf(root.id);
    return { path, ...policy.root, effective: effectivePolicy(policy) };
  }

  async setRootPolicy(caller: Caller, body: RootVersionsRequest): Promise<RootVersions> {
    const root = await this.rootAt(caller.user, body.path);
    const before = await this.repo.policyOf(root.id);
    await this.repo.setRootOverride(root.id, { maxVersions: body.maxVersions, maxAgeDays: body.maxAgeDays });
    await this.audit.record({
      action: 'settings.change',
      target: nodeTarget(root, body.path),
      params: {
        setting: VERSION_SETTING,
        from: JSON.stringify(before.root),
        to: JSON.stringify({ maxVersions: body.maxVersions, maxAgeDays: body.maxAgeDays }),
      },
    });
    return this.rootPolicy(caller.user, body.path);
  }

  private async rootAt(user: UserRow, path: string): Promise<NodeRow> {
    if (splitPath(path)?.length !== 1) throw badRequest('invalid_path');
    return this.access.require(user, path, 'SETTING');
  }

  /**
   * Which names of one drop are taken under `path` (CREATE on it, as an upload there
   * needs), and the name keep-both would give each now. A relative name with folders is
   * looked up below `path`; a folder on its way that does not exist makes it free.
   */
  async check(user: UserRow, path: string, names: string[]): Promise<UploadCheckItem[]> {
    const folder = await this.access.require(user, path, 'CREATE');
    if (folder.folder !== 1) throw badRequest('invalid_path');
    const items: UploadCheckItem[] = [];
    for (const name of names) {
      const segments = name
        .split('/')
        .filter((s) => s !== '')
        .map(normalizeName);
      if (segments.length === 0 || segments.includes('.') || segments.includes('..')) throw badRequest('invalid_path');
      let parent: NodeRow | undefined = folder;
      for (const segment of segments.slice(0, -1)) {
        parent = await this.tree.repo.findLiveChild(parent.id, segment);
        if (!parent || parent.folder !== 1) break;
      }
      const last = segments.at(-1)!;
      const taken = parent && parent.folder === 1 ? await this.tree.repo.findLiveChild(parent.id, last) : undefined;
      const suggested = taken && parent ? await placeName(this.tree.repo, parent.id, last, taken.folder === 1, 'keep-both') : last;
      items.push({
        name,
        exists: taken !== undefined,
        kind: taken ? (taken.folder === 1 ? 'folder' : 'file') : null,
        suggested: joinRelative(segments, suggested),
      });
    }
    return items;
  }

  /**
   * Prunes every root's versions by its retention: older than its days, or past its count
   * for a file (the oldest first). A download under way keeps its blob until it ends (its pin).
   */
  async prune(now = new Date()): Promise<number> {
    let removed = 0;
    for (const rootId of await this.repo.rootsWithVersions()) {
      const policy = effectivePolicy(await this.repo.policyOf(rootId));
      if (policy.maxAgeDays !== null) {
        const before = new Date(now.getTime() - policy.maxAgeDays * 86_400_000).toISOString();
        for (let batch = await this.repo.olderThan(rootId, before); batch.length > 0; batch = await this.repo.olderThan(rootId, before)) {
          const dropped = await this.dropIn(rootId, batch);
          removed += dropped;
          if (dropped === 0) break;
        }
      }
      if (policy.maxVersions !== null) {
        for (const nodeId of await this.repo.nodesOver(rootId, policy.maxVersions)) {
          removed += await this.dropIn(rootId, (await this.repo.listOf(nodeId)).slice(policy.maxVersions));
        }
      }
    }
    return removed;
  }

  /** Drops versions of one root under its tree lock; answers how many went. */
  private async dropIn(rootId: string, rows: VersionRow[]): Promise<number> {
    const root = await this.tree.repo.findById(rootId);
    if (!root) throw new AppError(500, 'request_error_message');
    return this.tree.locked([root], async (repo) => {
      const ids = new Set(rows.map((r) => r.id));
      // Only those still there and still counted in this root.
      const current = (await versionsIn(repo).ofNodes([...new Set(rows.map((r) => r.node_id))])).filter((v) => ids.has(v.id) && v.root_id === rootId);
      await dropVersions(repo, current);
      return current.length;
    });
  }
}

function joinRelative(segments: string[], last: string): string {
  return [...segments.slice(0, -1), last].join('/');
}
