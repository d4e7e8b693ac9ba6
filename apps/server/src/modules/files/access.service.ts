import { PERMISSION_TYPES, userRowPermissions, type PermissionType } from '@bogwan/contracts';
import { AppError, forbidden } from '../../errors.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { effectivePermissions, indexEntries } from '../permissions/effective.js';
import type { PermissionsRepo } from '../permissions/permissions.repo.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { UserRow } from '../users/users.repo.js';
import { actionRefusedBy, nodeTarget } from './file-audit.js';
import { type FileTreeService, folderNotFound } from './file-tree.js';
import type { FileAccess, NodeRow } from './ports.js';

/** Settings key of the default permissions (the spec's Setting `permission`). */
export const PERMISSION_SETTING = 'permission';

export interface DefaultPermissions {
  user: PermissionType[];
  admin: PermissionType[];
}

/**
 * Seeded when the setting is missing: a USER may work with files in every folder but not
 * lock, unlock, delete permanently or change settings; administrators may do everything.
 */
export const DEFAULT_PERMISSIONS: DefaultPermissions = {
  user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'],
  admin: [...PERMISSION_TYPES],
};

/** Level from which an account is an administrator (creates roots, purges trash). */
export const ADMIN_LEVEL = 2;
export const MASTER_LEVEL = 3;

/**
 * The one permission check of every file, share and request call. MASTER holds every
 * permission; ADMIN the default admin permissions; a USER what the per-node entries of their
 * account and groups give (modules/permissions/effective.ts), the default user permissions
 * where nothing says otherwise.
 */
export class AccessService implements FileAccess {
  constructor(
    private readonly tree: FileTreeService,
    private readonly settings: SettingsRepo,
    private readonly groups: GroupsRepo,
    private readonly entries: PermissionsRepo,
    /** Every refusal is recorded (a missing path is not: there is nothing to protect, and probes would flood it). */
    private readonly audit: AuditRecorder,
  ) {}

  async require(user: UserRow, path: string, permission: PermissionType): Promise<NodeRow> {
    const node = await this.tree.resolve(path);
    if (!node) throw folderNotFound();
    await this.requireOn(user, node, permission, path);
    return node;
  }

  /** The same check for a node already in hand (`path` when the caller knows it, for the refusal's record). */
  async requireOn(user: UserRow, node: NodeRow | null, permission: PermissionType, path?: string): Promise<void> {
    if ((await this.grants(user, [node])).get(node?.id ?? '')?.has(permission)) return;
    const refusal = forbidden();
    await this.recordRefusal(refusal, permission, node, path);
    throw refusal;
  }

  /**
   * Records a refused file access (this check's 403, or a secure folder's `secure_approval_required`):
   * the action the permission guards, outcome `refused`, the reason key and the node's path.
   */
  async recordRefusal(refusal: AppError, permission: PermissionType, node: NodeRow | null, path?: string): Promise<void> {
    const where = path ?? (node ? ((await this.tree.anyPaths([node.id])).get(node.id) ?? null) : '/');
    await this.audit.record({
      action: actionRefusedBy(permission),
      outcome: 'refused',
      reason: refusal.messageKey,
      target: nodeTarget(node, where ?? node?.name ?? '/'),
      params: { permission },
    });
  }

  async permissionsAt(user: UserRow, path: string): Promise<PermissionType[]> {
    const node = path === '/' ? null : await this.tree.resolve(path);
    if (node === undefined) return [];
    return this.permissionsOn(user, node);
  }

  /** The permissions `user` holds on a node (null: the top level). */
  async permissionsOn(user: UserRow, node: NodeRow | null): Promise<PermissionType[]> {
    const held = (await this.grants(user, [node])).get(node?.id ?? '') ?? new Set();
    return PERMISSION_TYPES.filter((p) => held.has(p));
  }

  /** The nodes on which `user` holds `permission`, in their order. */
  async filter<T extends NodeRow>(user: UserRow, nodes: T[], permission: PermissionType): Promise<T[]> {
    const grants = await this.grants(user, nodes);
    return nodes.filter((node) => grants.get(node.id)?.has(permission));
  }

  /**
   * What `user` may do on each node, keyed by node id (`''` for the top level `/`,
   * passed as null). At the top level everyone may READ (the root list) and only
   * administrators holding CREATE may create (root folders).
   */
  async grants(user: UserRow, nodes: (NodeRow | null)[]): Promise<Map<string, Set<PermissionType>>> {
    const result = new Map<string, Set<PermissionType>>();
    if (user.role_level >= ADMIN_LEVEL) {
      const held = new Set<PermissionType>(user.role_level >= MASTER_LEVEL ? PERMISSION_TYPES : await this.defaultsFor(user));
      const top = new Set<PermissionType>(held.has('CREATE') ? ['READ', 'CREATE'] : ['READ']);
      for (const node of nodes) result.set(node?.id ?? '', node ? held : top);
      return result;
    }
    const defaults = await this.defaultsFor(user);
    const groupIds = await this.groups.groupIdsOf(user.id);
    const entries = await this.entries.entriesOf(user.id, groupIds);
    const live = nodes.filter((node): node is NodeRow => node !== null);
    if (nodes.length > live.length) result.set('', new Set<PermissionType>(['READ']));
    const principal = { userId: user.id, groupIds, defaults };
    if (entries.length === 0) {
      // Nothing names this user or their groups: the defaults everywhere, no tree walk.
      const held = effectivePermissions(principal, [], new Map());
      for (const node of live) result.set(node.id, held);
      return result;
    }
    const index = indexEntries(entries);
    const chains = await this.parentChains(live);
    for (const node of live) {
      const chain = [node.id, ...(chains.get(node.parent_id) ?? [])];
      result.set(node.id, effectivePermissions(principal, chain, index));
    }
    return result;
  }

  /** The way up from each distinct parent (itself first, its root last); listings share one. */
  private async parentChains(nodes: NodeRow[]): Promise<Map<string, string[]>> {
    const parents = [...new Set(nodes.map((node) => node.parent_id).filter((id) => id !== ''))];
    const chains = new Map<string, string[]>();
    const links = await this.tree.repo.chains(parents);
    links.sort((a, b) => a.depth - b.depth);
    for (const link of links) {
      const chain = chains.get(link.start_id) ?? [];
      chain.push(link.id);
      chains.set(link.start_id, chain);
    }
    return chains;
  }

  /**
   * The default permissions of a role (setting `permission`); unknown names are dropped, and
   * DELETE and SETTING from the user row (the spec ignores those columns there).
   */
  async defaults(): Promise<DefaultPermissions> {
    const stored =
      (await this.settings.get<Partial<DefaultPermissions>>(PERMISSION_SETTING)) ??
      (await this.settings.getOrInsert<Partial<DefaultPermissions>>(PERMISSION_SETTING, DEFAULT_PERMISSIONS));
    const known = (list: unknown) => (Array.isArray(list) ? PERMISSION_TYPES.filter((p) => list.includes(p)) : []);
    return { user: userRowPermissions(known(stored?.user)), admin: known(stored?.admin) };
  }

  private async defaultsFor(user: UserRow): Promise<PermissionType[]> {
    const defaults = await this.defaults();
    return user.role_level >= ADMIN_LEVEL ? defaults.admin : defaults.user;
  }
}
