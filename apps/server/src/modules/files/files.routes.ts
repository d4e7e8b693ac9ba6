import {
  createFolderRequestSchema,
  fileEntrySchema,
  listQuerySchema,
  listResponseSchema,
  lockRequestSchema,
  markedQuerySchema,
  markedResponseSchema,
  moveRequestSchema,
  okResponseSchema,
  pathQuerySchema,
  permissionListSchema,
  renameRequestSchema,
  starRequestSchema,
  trashRequestSchema,
  trashResponseSchema,
  treeQuerySchema,
  treeResponseSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { Caller, FilesService } from './files.service.js';
import type { MovesService } from './moves.service.js';

const category = 'file';
const policies = {
  list: { category, name: 'file_list', description: 'Files and folders in a folder, folders first', level: 1 },
  tree: { category, name: 'file_tree', description: 'The folder tree, expanded along a path', level: 1 },
  create: { category, name: 'folder_create', description: 'Create a folder (a root folder at /: administrators)', level: 1 },
  move: { category, name: 'file_move', description: 'Move a file or folder into another folder', level: 1 },
  copy: { category, name: 'file_copy', description: 'Copy a file or folder into another folder', level: 1 },
  rename: { category, name: 'file_rename', description: 'Rename a file or folder', level: 1 },
  trash: { category, name: 'file_trash', description: 'Move files and folders to the trash', level: 1 },
  star: { category, name: 'file_star', description: 'Star or unstar a file or folder', level: 1 },
  recent: { category, name: 'file_recent', description: 'Files the user opened or added lately', level: 1 },
  starred: { category, name: 'file_starred', description: 'Files and folders the user starred', level: 1 },
  lock: { category, name: 'file_lock', description: 'Lock or unlock a folder (secure folder flag)', level: 1 },
  permission: { category: 'resource', name: 'resource_permission', description: 'The permissions the user holds at a path', level: 1 },
} satisfies Record<string, RoutePolicy>;

export interface FileRoutesDeps {
  files: FilesService;
  moves: MovesService;
}

/** The caller of a signed-in request. */
export function callerOf(request: FastifyRequest): Caller {
  return { user: request.user!, ip: request.ip };
}

export async function fileRoutes(app: FastifyInstance, { files, moves }: FileRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get(
    '/api/file/list',
    { config: { policy: policies.list }, schema: { tags, querystring: listQuerySchema, response: { 200: listResponseSchema } } },
    (request) => files.list(request.user!, request.query),
  );

  r.get(
    '/api/file/tree',
    { config: { policy: policies.tree }, schema: { tags, querystring: treeQuerySchema, response: { 200: treeResponseSchema } } },
    (request) => files.folderTree(request.user!, request.query.path),
  );

  r.post(
    '/api/file',
    { config: { policy: policies.create }, schema: { tags, body: createFolderRequestSchema, response: { 200: fileEntrySchema } } },
    (request) => files.createFolder(callerOf(request), request.body),
  );

  r.post('/api/file/move', { config: { policy: policies.move }, schema: { tags, body: moveRequestSchema, response: { 200: fileEntrySchema } } }, (request) =>
    moves.move(callerOf(request), request.body),
  );

  r.post('/api/file/copy', { config: { policy: policies.copy }, schema: { tags, body: moveRequestSchema, response: { 200: fileEntrySchema } } }, (request) =>
    moves.copy(callerOf(request), request.body),
  );

  r.put(
    '/api/file/rename',
    { config: { policy: policies.rename }, schema: { tags, body: renameRequestSchema, response: { 200: fileEntrySchema } } },
    (request) => moves.rename(callerOf(request), request.body),
  );

  r.post(
    '/api/file/trash',
    { config: { policy: policies.trash }, schema: { tags, body: trashRequestSchema, response: { 200: trashResponseSchema } } },
    async (request) => ({ ids: await moves.trash(callerOf(request), request.body.paths) }),
  );

  r.put(
    '/api/file/star',
    { config: { policy: policies.star }, schema: { tags, body: starRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await files.star(callerOf(request), request.body.path, request.body.starred);
      return { success: true };
    },
  );

  r.get(
    '/api/file/recent',
    { config: { policy: policies.recent }, schema: { tags, querystring: markedQuerySchema, response: { 200: markedResponseSchema } } },
    async (request) => ({ items: await files.recent(request.user!, request.query.limit) }),
  );

  r.get(
    '/api/file/starred',
    { config: { policy: policies.starred }, schema: { tags, querystring: markedQuerySchema, response: { 200: markedResponseSchema } } },
    async (request) => ({ items: await files.starred(request.user!, request.query.limit) }),
  );

  r.put('/api/file/lock', { config: { policy: policies.lock }, schema: { tags, body: lockRequestSchema, response: { 200: fileEntrySchema } } }, (request) =>
    files.lock(callerOf(request), request.body.path, request.body.lock),
  );

  r.get(
    '/api/resource/permission',
    {
      config: { policy: policies.permission },
      schema: { tags: ['resource'], querystring: pathQuerySchema, response: { 200: permissionListSchema } },
    },
    (request) => files.permissionsAt(request.user!, request.query.path),
  );
}
