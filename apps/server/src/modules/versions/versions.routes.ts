import {
  fileEntrySchema,
  fileVersionListSchema,
  fileVersionRefSchema,
  pathQuerySchema,
  rootVersionsRequestSchema,
  rootVersionsSchema,
  uploadCheckRequestSchema,
  uploadCheckResponseSchema,
  versionSettingsSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { VersionDownloads } from './version-downloads.js';
import type { VersionsService } from './versions.service.js';

const category = 'file';
const policies = {
  check: { category, name: 'file_upload_check', description: 'Which names of an upload drop already exist in a folder (CREATE on it)', level: 1 },
  list: { category, name: 'file_versions', description: 'A file\u2019s versions, the current one first (DOWNLOAD on the file)', level: 1 },
  download: {
    category,
    name: 'file_version_download',
    description:
      'Download a version of a file, as the file\u2019s download (DOWNLOAD, secure folders need an approval); with the bearer token or a download ticket',
    level: 1,
    authentication: 'file-download-ticket',
  },
  restore: {
    category,
    name: 'file_version_restore',
    description: 'Make a version the file\u2019s content again; the current one becomes a version (UPDATE)',
    level: 1,
  },
  remove: { category, name: 'file_version_delete', description: 'Delete a version of a file for good (DELETE; not the current one)', level: 1 },
  rootGet: { category, name: 'root_versions', description: 'A root folder\u2019s own version retention (SETTING on the root)', level: 2 },
  rootSet: { category, name: 'root_versions_update', description: 'Set or clear a root folder\u2019s own version retention (SETTING on the root)', level: 2 },
  settings: { category: 'setting', name: 'version_setting', description: 'How many versions of a file are kept, and for how many days', level: 2 },
  settingsUpdate: {
    category: 'setting',
    name: 'version_setting_update',
    description: 'Set how many versions of a file are kept, and for how many days',
    level: 2,
  },
} satisfies Record<string, RoutePolicy>;

export interface VersionRoutesDeps {
  versions: VersionsService;
  downloads: VersionDownloads;
}

export async function versionRoutes(app: FastifyInstance, { versions, downloads }: VersionRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.post(
    '/api/file/upload/check',
    { config: { policy: policies.check }, schema: { tags, body: uploadCheckRequestSchema, response: { 200: uploadCheckResponseSchema } } },
    async (request) => ({ items: await versions.check(request.user!, request.body.path, request.body.names) }),
  );

  r.get(
    '/api/file/versions',
    { config: { policy: policies.list }, schema: { tags, querystring: pathQuerySchema, response: { 200: fileVersionListSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return versions.list(request.user!, request.query.path);
    },
  );

  r.get(
    '/api/file/version/download',
    { config: { policy: policies.download }, schema: { tags, querystring: fileVersionRefSchema } },
    async (request, reply) => {
      await downloads.send(request, reply, request.query.path, request.query.id);
      return reply;
    },
  );

  r.post(
    '/api/file/version/restore',
    { config: { policy: policies.restore }, schema: { tags, body: fileVersionRefSchema, response: { 200: fileEntrySchema } } },
    (request) => versions.restore(callerOf(request), request.body.path, request.body.id),
  );

  r.delete('/api/file/version', { config: { policy: policies.remove }, schema: { tags, body: fileVersionRefSchema } }, async (request, reply) => {
    await versions.delete(callerOf(request), request.body.path, request.body.id);
    return reply.code(204).send();
  });

  r.get(
    '/api/file/root/versions',
    { config: { policy: policies.rootGet }, schema: { tags, querystring: pathQuerySchema, response: { 200: rootVersionsSchema } } },
    (request) => versions.rootPolicy(request.user!, request.query.path),
  );

  r.put(
    '/api/file/root/versions',
    { config: { policy: policies.rootSet }, schema: { tags, body: rootVersionsRequestSchema, response: { 200: rootVersionsSchema } } },
    (request) => versions.setRootPolicy(callerOf(request), request.body),
  );

  r.get('/api/setting/versions', { config: { policy: policies.settings }, schema: { tags: ['setting'], response: { 200: versionSettingsSchema } } }, () =>
    versions.settingsGet(),
  );

  r.put(
    '/api/setting/versions',
    { config: { policy: policies.settingsUpdate }, schema: { tags: ['setting'], body: versionSettingsSchema, response: { 200: versionSettingsSchema } } },
    (request) => versions.settingsSet(request.body),
  );
}
