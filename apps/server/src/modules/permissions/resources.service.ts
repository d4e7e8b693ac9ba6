import {
  ACCESS_LEVEL_PERMISSIONS,
  accessLevelOf,
  PERMISSION_TYPES,
  type AccessLevel,
  type CreateResourceRequest,
  type FolderAccess,
  type PermissionType,
  type Resource,
  type ResourceEntryInput,
  type UpdateResourceRequest,
} from '@bogwan/contracts';
import { badRequest, notFound } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { nodeTarget } from '../files/file-audit.js';
import { ADMIN_LEVEL, type AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import { folderNotFound } from '../files/file-tree.js';
import type { NodeRow } from '../files/ports.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { Caller } from '../files/files.service.js';
import type { EntityType, EntryChange, EntryRow, PermissionsRepo, ResourceRow } from './permissions.repo.js';

/**
 * Resources: nodes whose permissions differ from the defaults. Reading them is for
 * administrators (route policy); writing needs SETTING on the node's path as well.
 */
export class ResourcesService {
  constructor(
    private readonly repo: PermissionsRepo,
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly users: UsersRepo,
    private readonly groups: GroupsRepo,
    private readonly audit: AuditRecorder,
  ) {}

  async list(query: { inode?: string; _id?: string; path?: string }): Promise<Resource[]> {
    let rows: ResourceRow[];
    if (query._id) rows = [await this.repo.findById(query._id)].filter((r): r is ResourceRow => !!r);
    else if (query.inode) rows = [await this.repo.findByNode(query.inode)].filter((r): r is ResourceRow => !!r);
    else if (query.path) {
      const node = await this.tree.resolve(query.path);
      rows = node ? [await this.repo.findByNode(node.id)].filter((r): r is ResourceRow => !!r) : [];
    } else rows = await this.repo.list();
    return this.present(rows);
  }

  /** Creates the node's resource (or adds to the one it has) with the given entries. */
  async create(caller: Caller, body: CreateResourceRequest): Promise<Resource> {
    const node = await this.nodeOf(body.path, body.inode);
    return this.apply(caller, node, body.users, body.groups);
  }

  /** Updates by id, or by path (creating the resource when the node has none: the spec's save rule). */
  async update(caller: Caller, body: UpdateResourceRequest): Promise<Resource> {
    let node: NodeRow;
    if (body._id) {
      const resource = await this.repo.findById(body._id);
      if (!resource) throw notFound('resource_not_found');
      node = await this.liveNode(resource.node_id);
    } else node = await this.nodeOf(body.path!, body.inode);
    if (body.volume !== undefined) {
      await this.access.requireOn(caller.user, node, 'SETTING');
      if (node.parent_id !== '') throw badRequest('invalid_request_message');
      await this.tree.repo.update(node.id, { volume_limit: body.volume });
      await this.audit.record({
        action: 'file.volume',
        target: nodeTarget(node, await this.tree.pathOf(node)),
        params: { from: node.volume_limit, to: body.volume },
      });
    }
    return this.apply(caller, node, body.users, body.groups);
  }

  async remove(caller: Caller, id: string): Promise<void> {
    const resource = await this.repo.findById(id);
    if (!resource) throw notFound('resource_not_found');
    const node = await this.tree.repo.findById(resource.node_id);
    if (node) await this.access.requireOn(caller.user, node, 'SETTING');
    const path = node ? ((await this.tree.anyPaths([node.id])).get(node.id) ?? node.name) : null;
    const target = { kind: 'node' as const, id: resource.node_id, path, label: node?.name ?? null };
    await this.repo.delete(id, (trx) => this.audit.record({ action: 'permission.change', target, params: { removed: true, resourceId: id } }, trx));
  }

  /** Access per root folder of one user or group (permission tabs of the edit dialogs). */
  async folderAccess(entityType: EntityType, entityId: string, user?: UserRow): Promise<FolderAccess[]> {
    const roots = (await this.tree.repo.liveRoots()).filter((root) => !root.name.includes('_deleted_'));
    // An administrator's entries (if any were left) do not count: show what they hold.
    const counted = !(user && user.role_level >= ADMIN_LEVEL);
    const entries = new Map(
      counted
        ? (
            await this.repo.entriesOnNodes(
              entityType,
              entityId,
              roots.map((r) => r.id),
            )
          ).map((e) => [e.node_id, e])
        : [],
    );
    const defaults = await this.access.defaults();
    const grants = user ? await this.access.grants(user, roots) : undefined;
    return roots.map((root) => {
      const entry = entries.get(root.id);
      const permissions = entry ? entry.permissions : grants ? PERMISSION_TYPES.filter((p) => grants.get(root.id)?.has(p)) : defaults.user;
      return { inode: root.id, path: `/${root.name}`, name: root.name, permissions, access: accessLevelOf(permissions), explicit: !!entry };
    });
  }

  private async apply(caller: Caller, node: NodeRow, users: ResourceEntryInput[] = [], groups: ResourceEntryInput[] = []): Promise<Resource> {
    await this.access.requireOn(caller.user, node, 'SETTING');
    const changes = [...(await this.changes('user', users)), ...(await this.changes('group', groups))];
    const path = await this.tree.pathOf(node);
    // Each entry as `user:<id>=READ,PREVIEW` (or `=removed`), one per line; the record commits with the entries.
    const entries = changes.map((c) => `${c.entity_type}:${c.entity_id}=${c.remove ? 'removed' : c.permissions.join(',')}`).join('\n');
    const record =
      changes.length > 0
        ? (trx: Parameters<AuditRecorder['record']>[1]) =>
            this.audit.record({ action: 'permission.change', target: nodeTarget(node, path), params: { entries, count: changes.length } }, trx)
        : undefined;
    const resource = await this.repo.save(node.id, caller.user.id, changes, record);
    return (await this.present([resource]))[0]!;
  }

  /** Entries as stored: permissions from the list, or from the access level when only a level is given. */
  private async changes(type: EntityType, inputs: ResourceEntryInput[]): Promise<EntryChange[]> {
    const ids = [...new Set(inputs.map((i) => i.entity))];
    const known = type === 'user' ? await this.users.findByIds(ids) : await this.groups.findByIds(ids);
    if (known.length !== ids.length) throw badRequest(type === 'user' ? 'user_not_found' : 'group_not_found');
    if (type === 'user') {
      // Administrators hold their role's permissions everywhere: an entry would change nothing.
      // Removing one (left from before a promotion) stays allowed.
      const administrators = new Set((known as UserRow[]).filter((user) => user.role_level >= ADMIN_LEVEL).map((user) => user.id));
      if (inputs.some((input) => administrators.has(input.entity) && input.remove !== true)) throw badRequest('permission_entry_user_only');
    }
    return inputs.map((input) => {
      const permissions: PermissionType[] =
        input.permissions !== undefined
          ? PERMISSION_TYPES.filter((p) => (input.permissions as string[]).includes(p))
          : input.access !== undefined
            ? [...ACCESS_LEVEL_PERMISSIONS[input.access as AccessLevel]]
            : [];
      return { entity_type: type, entity_id: input.entity, permissions, access: accessLevelOf(permissions), remove: input.remove === true };
    });
  }

  private async nodeOf(path: string, inode?: string): Promise<NodeRow> {
    const node = await this.tree.resolve(path);
    if (!node || (inode && node.id !== inode)) throw folderNotFound();
    return node;
  }

  private async liveNode(id: string): Promise<NodeRow> {
    const node = await this.tree.repo.findById(id);
    if (!node || !(await this.tree.livePaths([id])).has(id)) throw folderNotFound();
    return node;
  }

  private async present(rows: ResourceRow[]): Promise<Resource[]> {
    if (rows.length === 0) return [];
    const entries = await this.repo.entriesOfResources(rows.map((r) => r.id));
    const nodes = new Map<string, NodeRow>();
    for (const row of rows) {
      const node = await this.tree.repo.findById(row.node_id);
      if (node) nodes.set(node.id, node);
    }
    const paths = await this.tree.livePaths([...nodes.keys()]);
    const userIds = new Set<string>(entries.filter((e) => e.entity_type === 'user').map((e) => e.entity_id));
    for (const node of nodes.values()) if (node.owner_id) userIds.add(node.owner_id);
    const users = new Map((await this.users.findByIds([...userIds])).map((u) => [u.id, u]));
    const groups = new Map((await this.groups.findByIds(entries.filter((e) => e.entity_type === 'group').map((e) => e.entity_id))).map((g) => [g.id, g]));
    const byResource = new Map<string, EntryRow[]>();
    for (const entry of entries) byResource.set(entry.resource_id, [...(byResource.get(entry.resource_id) ?? []), entry]);
    const result: Resource[] = [];
    for (const row of rows) {
      const node = nodes.get(row.node_id);
      const path = paths.get(row.node_id);
      if (!node || path === undefined) continue; // trashed: its permissions come back with it
      const own = byResource.get(row.id) ?? [];
      const owner = node.owner_id ? users.get(node.owner_id) : undefined;
      result.push({
        _id: row.id,
        inode: node.id,
        name: node.name,
        path,
        folder: node.folder === 1,
        owner: owner ? { _id: owner.id, name: owner.name, email: owner.email, profileImage: owner.profile_image } : null,
        createdAt: row.created_at,
        users: own.flatMap((e) => {
          const u = users.get(e.entity_id);
          if (e.entity_type !== 'user' || !u) return [];
          return [
            { entity: { _id: u.id, name: u.name, email: u.email, role: u.role, profileImage: u.profile_image }, permissions: e.permissions, access: e.access },
          ];
        }),
        groups: own.flatMap((e) => {
          const g = groups.get(e.entity_id);
          if (e.entity_type !== 'group' || !g) return [];
          return [{ entity: { _id: g.id, name: g.name, description: g.description }, permissions: e.permissions, access: e.access }];
        }),
        volume: node.parent_id === '' ? (node.volume_limit === null ? null : Number(node.volume_limit)) : null,
      });
    }
    return result;
  }
}
