import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import type { EventsService } from '../events/events.service.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { TrashService } from '../trash/trash.service.js';
import { trashRoutes } from '../trash/trash.routes.js';
import type { UsersRepo } from '../users/users.repo.js';
import { AccessService } from './access.service.js';
import { FileTreeService } from './file-tree.js';
import { fileRoutes } from './files.routes.js';
import { FilesService } from './files.service.js';
import { MovesService } from './moves.service.js';
import { NodesRepo } from './nodes.repo.js';
import type { FileAccess, FileTree } from './ports.js';
import { rootRoutes } from './roots.routes.js';
import { RootsService } from './roots.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The file tree as metadata (resolve, add files, walk); used by the transfer side. */
    fileTree: FileTree;
    /** The one permission check of every file call. */
    fileAccess: FileAccess;
  }
}

export interface FilesModuleDeps {
  db: Db;
  settings: SettingsRepo;
  users: UsersRepo;
  events: EventsService;
}

/** Wires the file tree, its permission check, the file, root and trash calls; decorates `fileTree` and `fileAccess`. */
export async function registerFiles(app: FastifyInstance, deps: FilesModuleDeps): Promise<void> {
  const tree = new FileTreeService(new NodesRepo(deps.db));
  const access = new AccessService(tree, deps.settings);
  const files = new FilesService(tree, access, deps.events);
  app.decorate('fileTree', tree);
  app.decorate('fileAccess', access);
  await app.register(fileRoutes, { files, moves: new MovesService(tree, access, deps.events) });
  await app.register(rootRoutes, { roots: new RootsService(tree, access, files, deps.events) });
  await app.register(trashRoutes, { trash: new TrashService(tree, access, deps.users, deps.events) });
}
