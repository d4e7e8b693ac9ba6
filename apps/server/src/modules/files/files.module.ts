import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { TrashService } from '../trash/trash.service.js';
import { TrashRetentionService } from '../trash/trash-retention.js';
import { trashRoutes } from '../trash/trash.routes.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { PermissionsRepo } from '../permissions/permissions.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import { requireDecorators } from '../../http/wiring.js';
import { AccessService } from './access.service.js';
import { FileTreeService } from './file-tree.js';
import { fileRoutes } from './files.routes.js';
import { FilesService } from './files.service.js';
import { MovesService, type SecureFolderLookup } from './moves.service.js';
import { NodesRepo } from './nodes.repo.js';
import type { FileAccess, FileTree, WriteLocks } from './ports.js';
import { rootRoutes } from './roots.routes.js';
import { RootsService } from './roots.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The file tree as metadata (resolve, add files, walk); used by the transfer side. */
    fileTree: FileTree;
    /** The one permission check of every file call. */
    fileAccess: FileAccess;
    /** The permission check with its internals (resources, defaults), for the permission module. */
    accessService: AccessService;
    /** Secure (locked) folders (built in app.ts; moves, copies and the sharing module use it). */
    secureFolders: SecureFolderLookup;
  }
}

export interface FilesModuleDeps {
  db: Db;
  settings: SettingsRepo;
  users: UsersRepo;
  audit: AuditRecorder;
  groups: GroupsRepo;
  permissions: PermissionsRepo;
  /** Copies and moves ask it whether bytes would leave a locked folder (required: a security check). */
  secure: SecureFolderLookup;
  /** WebDAV locks: web writes to a locked item are refused (required: the check never skips). */
  writeLocks: WriteLocks;
}

/**
 * Wires the file tree, its permission check, the file, root and trash calls; decorates
 * `fileTree` and `fileAccess`. Answers the trash retention rule for the housekeeping job.
 */
export async function registerFiles(
  app: FastifyInstance,
  deps: FilesModuleDeps,
): Promise<{ trashRetention: TrashRetentionService; tree: FileTreeService; access: AccessService; files: FilesService; moves: MovesService }> {
  requireDecorators(app, 'files', ['webhooks']);
  const tree = new FileTreeService(new NodesRepo(deps.db));
  const access = new AccessService(tree, deps.settings, deps.groups, deps.permissions, deps.audit);
  const files = new FilesService(tree, access, deps.audit, deps.writeLocks);
  app.decorate('fileTree', tree);
  app.decorate('fileAccess', access);
  app.decorate('accessService', access);
  app.decorate('secureFolders', deps.secure);
  const moves = new MovesService(tree, access, deps.audit, app.webhooks, deps.secure, deps.writeLocks);
  await app.register(fileRoutes, { files, moves });
  await app.register(rootRoutes, { roots: new RootsService(tree, access, files, deps.audit) });
  const trash = new TrashService(tree, access, deps.users, deps.audit, deps.writeLocks);
  const retention = new TrashRetentionService(deps.settings, trash, deps.audit);
  await app.register(trashRoutes, { trash, retention });
  // WebDAV makes its changes through the same services as the web's calls.
  return { trashRetention: retention, tree, access, files, moves };
}
