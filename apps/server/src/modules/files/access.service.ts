import { PERMISSION_TYPES, type PermissionType } from '@bogwan/contracts';
import { forbidden } from '../../errors.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { UserRow } from '../users/users.repo.js';
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
const MASTER_LEVEL = 3;

/**
 * The one permission check of every file call. Today it applies the default permissions
 * (setting `permission.user` / `permission.admin`; MASTER holds all); per-folder entries
 * extend `grants`, and every caller follows.
 */
export class AccessService implements FileAccess {
  constructor(
    private readonly tree: FileTreeService,
    private readonly settings: SettingsRepo,
  ) {}

  async require(user: UserRow, path: string, permission: PermissionType): Promise<NodeRow> {
    const node = await this.tree.resolve(path);
    if (!node) throw folderNotFound();
    await this.requireOn(user, node, permission);
    return node;
  }

  /** The same check for a node already in hand. */
  async requireOn(user: UserRow, node: NodeRow | null, permission: PermissionType): Promise<void> {
    if (!(await this.grants(user, [node])).get(node?.id ?? '')?.has(permission)) throw forbidden();
  }

  async permissionsAt(user: UserRow, path: string): Promise<PermissionType[]> {
    const node = path === '/' ? null : await this.tree.resolve(path);
    if (node === undefined) return [];
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
  private async grants(user: UserRow, nodes: (NodeRow | null)[]): Promise<Map<string, Set<PermissionType>>> {
    const held = new Set<PermissionType>(user.role_level >= MASTER_LEVEL ? PERMISSION_TYPES : await this.defaultsFor(user));
    const top = new Set<PermissionType>(['READ']);
    if (user.role_level >= ADMIN_LEVEL && held.has('CREATE')) top.add('CREATE');
    return new Map(nodes.map((node) => [node?.id ?? '', node ? held : top]));
  }

  private async defaultsFor(user: UserRow): Promise<PermissionType[]> {
    const stored =
      (await this.settings.get<Partial<DefaultPermissions>>(PERMISSION_SETTING)) ??
      (await this.settings.getOrInsert<Partial<DefaultPermissions>>(PERMISSION_SETTING, DEFAULT_PERMISSIONS));
    const list = user.role_level >= ADMIN_LEVEL ? stored?.admin : stored?.user;
    // Unknown names are dropped, as the spec says of permission lists.
    return Array.isArray(list) ? list.filter((p): p is PermissionType => (PERMISSION_TYPES as readonly string[]).includes(p)) : [];
  }
}
