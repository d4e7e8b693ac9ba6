import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { NodeRow } from '../files/ports.js';
import type { SecureFolders } from '../secure/secure-folders.js';
import type { UserRow, UsersRepo } from '../users/users.repo.js';
import type { RequestItemRow } from './requests.repo.js';

/**
 * The security managers of a request: ACTIVE accounts holding SETTING on every locked
 * folder the request's items lie in (or hold), never the requester. With the default
 * permissions these are the administrators; an administrator may name others by giving
 * them SETTING on the folder. An item no longer touching a lock is decided by whoever
 * holds SETTING on the item itself.
 */
export class SecurityManagers {
  constructor(
    private readonly users: UsersRepo,
    private readonly tree: FileTreeService,
    private readonly access: AccessService,
    private readonly secure: SecureFolders,
  ) {}

  /** The folders whose SETTING holders decide about these items (live items only). */
  async governingNodes(items: RequestItemRow[]): Promise<NodeRow[]> {
    const ids = new Set<string>();
    for (const item of items) {
      const node = await this.tree.repo.findById(item.node_id);
      if (!node) continue;
      const governing = await this.secure.governing(node);
      for (const id of governing.length > 0 ? governing : [node.id]) ids.add(id);
    }
    const nodes: NodeRow[] = [];
    for (const id of ids) {
      const node = await this.tree.repo.findById(id);
      if (node) nodes.push(node);
    }
    return nodes;
  }

  /** True when `user` may decide about requests over `governing` (not their own: the caller checks that). */
  async mayDecide(user: UserRow, governing: NodeRow[]): Promise<boolean> {
    if (user.status !== 'ACTIVE' || governing.length === 0) return false;
    return (await this.access.filter(user, governing, 'SETTING')).length === governing.length;
  }

  /** Every security manager of `governing` other than `exceptUserId`. */
  async managersOf(governing: NodeRow[], exceptUserId: string): Promise<UserRow[]> {
    const managers: UserRow[] = [];
    for (const user of await this.users.list()) {
      if (user.id !== exceptUserId && (await this.mayDecide(user, governing))) managers.push(user);
    }
    return managers;
  }
}
